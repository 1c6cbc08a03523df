import DeviceSimHAL
import DeviceSimStorage
import DeviceSimTaskList
import DeviceSimTime
import Foundation
import Testing

@Suite final class SQLiteTaskListStoreTests {
    let folder: DataFolder

    init() throws {
        folder = try DataFolder.temporary(prefix: "devicesim-task-list-tests-")
    }

    func store() -> SQLiteTaskListStore {
        SQLiteTaskListStore(path: folder.appending("phone.task-list.sqlite"), now: { .zero })
    }

    @Test func theStateRoundTripsThroughTheFileInItsOrder() throws {
        let first = store()
        #expect(try first.load() == TaskListLocalState())
        let state = TaskListLocalState(
            account: "anna@gmail.com", tasks: [TaskItem(id: "t2", text: "Pay rent", important: true), TaskItem(id: "t1", text: "Buy milk")],
            revision: 4, hasUnsentChanges: true, nextTaskNumber: 3)
        try first.save(state)
        first.database.close()
        #expect(try store().load() == state)
        #expect(try store().database.schemaVersion() == SQLiteTaskListStore.migrations.count)
    }

    @Test func aFailedSaveKeepsTheStateSavedBefore() throws {
        let db = store()
        let saved = TaskListLocalState(account: "anna@gmail.com", tasks: [TaskItem(id: "t1", text: "Buy milk")], revision: 1)
        try db.save(saved)
        for kind in [StorageFaults.Kind.diskFull, .writeError, .readOnly] {
            db.database.faults.inject(kind, count: 1)
            #expect(throws: StorageError.self) { try db.save(TaskListLocalState(account: nil)) }
            #expect(try db.load() == saved)
        }
    }
}
