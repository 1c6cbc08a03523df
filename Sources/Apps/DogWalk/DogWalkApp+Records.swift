import DeviceSimHAL
import DeviceSimTime

/// The map's business records: the first dog friend and its records on the map, the business menu,
/// placing a pee or a poo, the statistics popup, the record list and deleting a record.
extension DogWalkApp {
    /// The `delete-record` prompt's choices.
    public static let deleteChoices = ["yes", "no"]

    /// Starting the service, steps 4 to 9: the first dog friend (5-A: added through the dog profile
    /// dialog when there is none), its records on the map, the business menu.
    func showDogFriendOnMap() async {
        guard let data = userData, !isStopped else { return }
        if data.dogs.isEmpty {
            device.record("dog-friends.none")
            guard await addFirstDog() else { return }
        }
        guard let dog = userData?.dogs.first else { return }
        selectedDog = dog
        device.record("dog.selected", [("id", .int(Int(dog.id ?? 0))), ("name", Self.text(dog.name))])
        refreshMap()
        showBusinessMenu(by: "service")
    }

    /// The user clicks the location marker: the business menu toggles.
    public func clickLocationMarker() {
        guard isMapShown else { return ignored("click-marker", whyNoMap) }
        if isBusinessMenuShown { hideBusinessMenu(by: "marker") } else { showBusinessMenu(by: "marker") }
    }

    /// The user clicks the business menu's close button.
    public func closeBusinessMenu() {
        guard isBusinessMenuShown else { return ignored("close-menu", "the business menu is not shown") }
        hideBusinessMenu(by: "close-button")
    }

    /// The user clicks the pee or the poo button: the record is placed at the current location,
    /// appended to the records and saved; the menu hides and "please clean up" shows for a while. When
    /// the save fails, nothing changes but an error with its reason, and the menu stays for a retry.
    ///
    /// Without a current location (no GPS fix now: GPS off, no sky, no first fix yet) nothing is
    /// placed: the app says so (`record.refused`) and the menu stays, so the user can try again once
    /// the marker moves. A record is never placed at an old position (the marker of a lost fix).
    public func placeRecord(_ kind: BusinessRecord.Kind) {
        let action = "click-\(kind.rawValue)"
        guard isBusinessMenuShown else { return ignored(action, "the business menu is not shown; click the location marker") }
        guard let dog = selectedDog, let dogID = dog.id, let store = store else {
            return ignored(action, "no dog friend is selected")
        }
        guard let here = device.location.currentFix?.coordinate else {
            device.record("record.refused", [
                ("kind", .string(kind.rawValue)),
                ("reason", .string("no current location: the \(kind.rawValue) was not placed; wait until the marker moves again (a GPS fix) and try again")),
            ])
            return
        }
        let record = BusinessRecord(dogID: dogID, kind: kind, coordinate: here, placedAt: device.now, localTime: device.civilTime.timestamp, uid: newUID("r"))
        device.record("record.placing", [("kind", .string(kind.rawValue))] + Self.fields(here))
        let saved: BusinessRecord
        do {
            saved = try store.addRecord(record)
        } catch {
            guard !isStopped else { return }
            device.record("record.save-failed", [("kind", .string(kind.rawValue)), ("reason", .string(error.description))])
            return
        }
        userData?.records.append(saved)
        device.record("record.placed", Self.recordFields(saved) + [("uid", Self.text(saved.uid))])
        device.record("user-data.saved", [("what", .string("business record"))])
        refreshMap()
        hideBusinessMenu(by: "\(kind.rawValue)-button")
        showCleanUpMessage()
        requestSync()
    }

    /// The user clicks a record marker on the map (by the shown record's id, or the marker nearest a
    /// point): the statistics popup of the records overlapping it shows.
    public func clickRecord(id: Int64?, near point: GeoCoordinate?) {
        guard isMapShown else { return ignored("click-record", whyNoMap) }
        let marker: BusinessRecordMap.Marker?
        if let id {
            marker = shownMarkers.first { $0.shown.id == id }
        } else if let point {
            marker = shownMarkers.min { $0.shown.coordinate.distance(to: point) < $1.shown.coordinate.distance(to: point) }
                .flatMap { $0.shown.coordinate.distance(to: point) < max(settings.overlapDistance, 10) ? $0 : nil }
        } else {
            marker = nil
        }
        guard let marker else { return ignored("click-record", "no record marker there") }
        device.record("record.selected", Self.recordFields(marker.shown))
        showStatistics(of: marker)
    }

    /// The user clicks the statistics popup's close button.
    public func closeStatistics() {
        guard statisticsPopup != nil else { return ignored("close-statistics", "no statistics popup is shown") }
        statisticsPopup = nil
        device.record("statistics.closed", [("by", .string("close-button"))])
    }

    /// Shows (or shows again, after the records changed) the popup of `marker`'s group.
    private func showStatistics(of marker: BusinessRecordMap.Marker) {
        let selected = marker.shown
        let overlapping = marker.members
        statisticsPopup = (selected, overlapping)
        let statistics = BusinessRecordMap.Statistics(overlapping)
        device.record("statistics.shown", [
            ("record", .int(Int(selected.id ?? 0))), ("records", .int(statistics.total)), ("pees", .int(statistics.pees)), ("poos", .int(statistics.poos)),
            ("pee-percent", .int(statistics.peePercent)), ("poo-percent", .int(statistics.pooPercent)), ("list-link", .bool(true)),
        ] + Self.fields(selected.coordinate))
    }

    /// The user clicks the popup's record list link: the list of the overlapping records shows.
    public func openRecordList() {
        guard let popup = statisticsPopup else { return ignored("open-record-list", "no statistics popup is shown; click a record first") }
        showRecordList(popup.overlapping)
    }

    /// The user clicks a list item (by record id): the map centers on it and its delete button shows.
    public func selectListItem(id: Int64) {
        guard let list = recordList else { return ignored("select-record", "the record list is not shown") }
        guard let record = list.first(where: { $0.id == id }) else { return ignored("select-record", "record \(id) is not in the list") }
        selectedListRecord = record
        mapCenter = record.coordinate
        device.record("record-list.item-selected", Self.recordFields(record))
        device.record("map.centered", Self.fields(record.coordinate) + [("source", .string("record"))])
        device.record("delete-button.shown", [("record", .int(Int(id)))])
    }

    /// The user clicks the selected item's delete button: the app asks to confirm (`delete-record`,
    /// yes or no); yes deletes the record from the user data and saves it.
    public func deleteSelectedRecord() {
        guard let record = selectedListRecord, let id = record.id else { return ignored("delete-record", "no record is selected in the list") }
        run { await $0.confirmAndDelete(record, id: id) }
    }

    /// The user clicks the record list's close button.
    public func closeRecordList() {
        guard recordList != nil else { return ignored("close-record-list", "the record list is not shown") }
        recordList = nil
        selectedListRecord = nil
        device.record("record-list.closed")
    }

    private func confirmAndDelete(_ record: BusinessRecord, id: Int64) async {
        let message = "Delete this \(record.kind.rawValue) of \(record.localTime)?"
        guard let answer = await ask(UserPrompt(id: "delete-record", message: message, choices: Self.deleteChoices)), !isStopped else { return }
        guard answer == "yes" else {
            device.record("record.kept", [("record", .int(Int(id)))])
            return
        }
        guard userData?.records.contains(where: { $0.id == id }) == true else {
            device.record("record.delete-failed", [("record", .int(Int(id))), ("reason", .string("the record was already deleted (on another phone of the account)"))])
            return
        }
        do {
            try store?.deleteRecord(id: id)
        } catch {
            guard !isStopped else { return }
            device.record("record.delete-failed", [("record", .int(Int(id))), ("reason", .string(error.description))])
            return
        }
        userData?.records.removeAll { $0.id == id }
        selectedListRecord = nil
        device.record("record.deleted", Self.recordFields(record) + [("uid", Self.text(record.uid))])
        device.record("user-data.saved", [("what", .string("business records"))])
        refreshMap()
        requestSync()
    }

    private func showRecordList(_ records: [BusinessRecord]) {
        recordList = records
        device.record("record-list.shown", [("records", .int(records.count)), ("close-button", .bool(true))])
        for (position, record) in records.enumerated() {
            device.record("record-list.item", [("position", .int(position + 1))] + Self.recordFields(record))
        }
    }

    /// The selected dog's records.
    var dogRecords: [BusinessRecord] {
        guard let dogID = selectedDog?.id else { return [] }
        return (userData?.records ?? []).filter { $0.dogID == dogID }
    }

    /// Recomputes the markers (7-A: overlapping records show as the latest one) and records what shows;
    /// an open statistics popup and record list follow the records (a deleted record leaves them, and
    /// the list a user reopens shows what the popup counts).
    func refreshMap() {
        let records = dogRecords
        shownMarkers = BusinessRecordMap.markers(of: records, overlapDistance: settings.overlapDistance)
        let shown = shownMarkers.map(\.shown)
        device.record("map.records-shown", [
            ("markers", .int(shown.count)), ("pees", .int(shown.count { $0.kind == .pee })), ("poos", .int(shown.count { $0.kind == .poo })),
            ("records", .int(records.count)), ("aggregated", .int(records.count - shown.count)),
        ])
        for marker in shownMarkers {
            device.record("map.record-shown", Self.recordFields(marker.shown) + [("overlapping", .int(marker.members.count))])
        }
        refreshPopup()
    }

    /// The popup and the list after the records changed: the group of the popup's records that is
    /// left (its marker now), or, with none left, the popup closes (its marker is gone) and the list
    /// shows no records: the document closes a list only through its close button ("Hiding a
    /// business record list").
    private func refreshPopup() {
        guard let popup = statisticsPopup else { return }
        let before = Set(popup.overlapping.compactMap(\.id))
        guard let marker = shownMarkers.first(where: { $0.members.contains { $0.id.map(before.contains) == true } }) else {
            statisticsPopup = nil
            device.record("statistics.closed", [("by", .string("records-deleted"))])
            if recordList != nil {
                selectedListRecord = nil
                showRecordList([])
            }
            return
        }
        guard marker.members != popup.overlapping || marker.shown != popup.record else { return }
        showStatistics(of: marker)
        if recordList != nil {
            if let selected = selectedListRecord, !marker.members.contains(selected) { selectedListRecord = nil }
            showRecordList(marker.members)
        }
    }

    private func showBusinessMenu(by cause: String) {
        guard let here = currentLocation else { return }
        isBusinessMenuShown = true
        device.record("business-menu.shown", [("by", .string(cause)), ("buttons", .string("pee|poo|close"))] + Self.fields(here))
    }

    private func hideBusinessMenu(by cause: String) {
        isBusinessMenuShown = false
        device.record("business-menu.hidden", [("by", .string(cause))])
    }

    private func showCleanUpMessage() {
        cleanUpGeneration += 1
        let generation = cleanUpGeneration
        isCleanUpMessageShown = true
        device.record("clean-up-message.shown", [("message", .string("Please clean up after your dog")), ("for", .double(settings.cleanUpMessageDuration.inSeconds))])
        device.scheduler.schedule(after: settings.cleanUpMessageDuration) { [weak self] in
            guard let self, !isStopped, cleanUpGeneration == generation else { return }
            isCleanUpMessageShown = false
            device.record("clean-up-message.hidden")
        }
    }

    static func recordFields(_ record: BusinessRecord) -> [(key: String, value: TraceValue)] {
        [("id", .int(Int(record.id ?? 0))), ("kind", .string(record.kind.rawValue))] + fields(record.coordinate) + [("local-time", .string(record.localTime))]
    }
}
