/// How the task-list app joins the changes made on this device with the list another device put on
/// the server meanwhile (a three-way merge against the list both started from), so that a stale
/// upload never silently replaces the server's list:
///
/// - a task added on either side is kept (added here: after the server's tasks, in this device's
///   order; an id the server already uses for another task gets the next free number);
/// - a task deleted on either side is deleted (a deletion wins over an edit on the other side);
/// - a task kept on both sides takes each field (text, importance) from the side that changed it
///   since the common list; when both changed the same field, this device's change wins (it is the
///   later one: it is being uploaded now).
///
/// ```swift
/// let merged = TaskListMerge.merge(base: common, local: onThisPhone, remote: onTheServer)
/// ```
public enum TaskListMerge {
    /// The merged list of `local` (this device's tasks) and `remote` (the server's), both changed
    /// from `base`.
    public static func merge(base: [TaskItem], local: [TaskItem], remote: [TaskItem]) -> [TaskItem] {
        let baseByID = Dictionary(base.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let localByID = Dictionary(local.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var merged: [TaskItem] = []
        for theirs in remote {
            guard let original = baseByID[theirs.id] else {
                merged.append(theirs)   // added on the server
                continue
            }
            guard let mine = localByID[theirs.id] else { continue }   // deleted here
            var task = theirs
            if mine.text != original.text { task.text = mine.text }
            if mine.important != original.important { task.important = mine.important }
            merged.append(task)
        }
        var used = Set(merged.map(\.id))
        var next = (base + local + remote).compactMap(number(of:)).max().map { $0 + 1 } ?? 1
        for mine in local where baseByID[mine.id] == nil {
            var task = mine
            if used.contains(task.id) {
                // Both devices numbered a new task alike: this device's takes the next free number.
                if merged.contains(mine) { continue }
                task.id = "t\(next)"
                next += 1
            }
            used.insert(task.id)
            merged.append(task)
        }
        return merged
    }

    /// The number of a task id `t<n>` (nil for any other id).
    static func number(of task: TaskItem) -> Int? {
        task.id.first == "t" ? Int(task.id.dropFirst()) : nil
    }
}
