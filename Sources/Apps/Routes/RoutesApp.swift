import DeviceSimHAL
import Foundation
import DeviceSimTime

/// The routes app ("the fastest route from location A to location N"), written against the HAL, a
/// ``MapService`` and a ``RoutesStore`` only. Its document's narratives and use cases:
///
/// - **Narrative 1** Opening the app online shows the map at the current location; offline, the
///   routes screen with the saved routes.
/// - **Narrative 2 / 3, Search use case** The user searches (suggestions; no connection: the error
///   state; nothing found: the empty state) and selects places; each selected place is the next stop
///   and the app shows the fastest route from the current location through the stops in order.
/// - **Narrative 5, Save route use case** "Save", a name, confirm: the route is saved in the local
///   database; when the database refuses, an error message, and the route stays on the map.
/// - **Narrative 4, Select route use case** On the routes screen, a saved route opens on the map
///   (online) or on the route details screen (offline).
/// - **Narrative 6, Edit route use case** On the map with a saved route, "edit" opens editing mode
///   (rename, add stops); save updates the database (refused: an error message, still editing,
///   nothing lost) or discard drops the changes.
/// - **Narrative 7, Delete route use case** From the map or by swiping on the routes screen, a
///   confirmation (prompt `delete-route`: `confirm` / `cancel`), then the route leaves the database
///   (refused: an error message, the route stays).
///
/// Events (the device's trace): `app.started`, `screen.shown` (`screen`; on the routes screen
/// `count` and `names`), `location.shown`, `search.results` (`query`, `state`: `suggestions`,
/// `empty`, `error`; `count`, `places`), `route.shown` (`screen`, `places`, `length` m, `time` s,
/// `name` when saved), `route.failed`, `form.shown`, `route.saved`, `route.save-failed`,
/// `editing.shown`, `route.updated`, `route.update-failed`, `editing.discarded`, `route.deleted`,
/// `route.delete-failed`, `delete.cancelled`, `error.shown` (`message`), `routes.stored` (what the
/// database holds after each write: `count`, `names`), `storage.failed`, `action.ignored`.
///
/// ```swift
/// let app = RoutesApp(device: device, maps: service, store: InMemoryRoutesStore())
/// app.start()
/// app.search("kamp")
/// app.selectSuggestion("Kamppi")
/// app.saveRoute(named: "To Kamppi")
/// ```
public final class RoutesApp {
    /// What the app shows.
    public enum Screen: String, Sendable, Hashable {
        case starting, map, routes, routeDetails = "route-details", editing
    }

    /// The device.
    public let device: Device
    /// The online map service.
    public let maps: any MapService
    /// Where saved routes are kept.
    public let store: any RoutesStore
    /// What the app shows now.
    public private(set) var screen: Screen = .starting
    /// The saved routes as the app last read or wrote them.
    public private(set) var savedRoutes: [SavedRoute] = []
    /// The route on the map (or on the details screen), if any.
    public private(set) var shownRoute: PlannedRoute?
    /// The saved route being shown, if the shown route is one.
    public private(set) var selected: SavedRoute?
    /// The last search's suggestions.
    public private(set) var suggestions: [RoutePlace] = []

    private var stops: [RoutePlace] = []
    private var draft: SavedRoute?
    private var locationSubscription: ObservationToken?
    private var locationShown = false
    private var stopped = false
    private var isNameFormOpen = false

    /// Creates the app; ``start()`` launches it.
    public init(device: Device, maps: any MapService, store: any RoutesStore) {
        self.device = device
        self.maps = maps
        self.store = store
    }

    private var isOnline: Bool { device.connectivity?.state != .offline }

    // MARK: Narrative 1: opening the app

    /// The user opens the app.
    public func start() {
        do {
            savedRoutes = try store.load()
        } catch {
            device.record("storage.failed", [("operation", .string("load")), ("reason", .string(error.description))])
        }
        device.record("app.started", [("online", .bool(isOnline)), ("saved", .int(savedRoutes.count))])
        if isOnline {
            showMap()
        } else {
            showRoutes()
        }
    }

    /// Stops the app (killed or restarted): it observes nothing, touches nothing and records nothing
    /// afterwards (killed in the middle of a database write, it shows no error and reads nothing back).
    public func stop() {
        stopped = true
        locationSubscription?.cancel()
        locationSubscription = nil
    }

    /// The user goes to the map.
    public func openMap() {
        guard screen != .editing else { return ignored("open-map", "editing a route") }
        selected = nil
        shownRoute = nil
        stops = []
        showMap()
    }

    /// The user goes to the routes screen.
    public func openRoutes() {
        guard screen != .editing else { return ignored("open-routes", "editing a route") }
        showRoutes()
    }

    private func showMap() {
        screen = .map
        device.record("screen.shown", [("screen", .string(screen.rawValue))])
        if let fix = device.location.currentFix {
            showLocation(fix.coordinate)
        } else if locationSubscription == nil {
            locationSubscription = device.location.observe { [weak self] update in
                guard let self, case .fix(let fix) = update else { return }
                self.locationSubscription?.cancel()
                self.locationSubscription = nil
                if self.screen == .map, !self.locationShown { self.showLocation(fix.coordinate) }
            }
        }
    }

    private func showLocation(_ coordinate: GeoCoordinate) {
        locationShown = true
        device.record("location.shown", [("lat", .double(coordinate.latitude)), ("lon", .double(coordinate.longitude))])
    }

    private func showRoutes() {
        screen = .routes
        device.record("screen.shown", [
            ("screen", .string(screen.rawValue)), ("count", .int(savedRoutes.count)),
            ("names", .string(savedRoutes.map(\.name).joined(separator: ", "))),
        ])
    }

    // MARK: Narratives 2 and 3: search, the fastest route A..N

    /// Search use case 1-3: the user enters `query`; the app shows suggestions, or the error state
    /// (no connection) or the empty state (nothing matches).
    public func search(_ query: String) {
        guard screen == .map || screen == .editing else { return ignored("search", "not on the map") }
        guard isOnline else {
            suggestions = []
            device.record("search.results", [("query", .string(query)), ("state", .string("error")), ("message", .string("No internet connection: unable to search for places."))])
            return
        }
        let here = device.location.currentFix?.coordinate ?? stops.last?.coordinate ?? GeoCoordinate(latitude: 0, longitude: 0)
        suggestions = maps.suggestions(for: query, near: here)
        device.record("search.results", [
            ("query", .string(query)), ("state", .string(suggestions.isEmpty ? "empty" : "suggestions")), ("count", .int(suggestions.count)),
            ("places", .string(suggestions.map(\.name).joined(separator: ", "))),
        ])
    }

    /// Search use case 4-5: the user selects a suggestion; it becomes the next stop and the app shows
    /// the fastest route from the current location through every stop in order.
    public func selectSuggestion(_ name: String) {
        guard screen == .map || screen == .editing else { return ignored("select-suggestion", "not on the map") }
        // As the search matched it: exactly, else ignoring case, accents, spaces and punctuation
        // ("Esplanadin puisto" is the suggestion "Esplanadinpuisto"), when that names one suggestion.
        func key(_ text: String) -> String {
            String(String.UnicodeScalarView(text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
                .unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }))
        }
        let loose = suggestions.filter { key($0.name) == key(name) }
        guard let place = suggestions.first(where: { $0.name == name }) ?? (loose.count == 1 ? loose.first : nil) else {
            let shown = suggestions.map { "'\($0.name)'" }.joined(separator: ", ")
            return ignored("select-suggestion", "'\(name)' is not among the suggestions" + (shown.isEmpty ? " (there are none: search first)" : " (\(shown))"))
        }
        suggestions = []
        if screen == .editing, var edited = draft {
            guard let route = plan(from: edited.route.start, through: edited.route.places + [place]) else { return }
            edited.route = route
            draft = edited
            announce(route, name: edited.name)
            return
        }
        guard let here = device.location.currentFix?.coordinate else {
            device.record("route.failed", [("reason", .string("the current location is not known yet"))])
            return
        }
        if selected != nil {
            selected = nil
            stops = []
        }
        guard let route = plan(from: here, through: stops + [place]) else { return }
        stops.append(place)
        shownRoute = route
        announce(route, name: nil)
    }

    private func plan(from start: GeoCoordinate, through places: [RoutePlace]) -> PlannedRoute? {
        guard isOnline else {
            device.record("route.failed", [("reason", .string("no internet connection"))])
            return nil
        }
        do {
            return try maps.fastestRoute(from: start, through: places)
        } catch {
            device.record("route.failed", [("places", .string(places.map(\.name).joined(separator: " > "))), ("reason", .string(error.description))])
            return nil
        }
    }

    private func announce(_ route: PlannedRoute, name: String?) {
        var fields: [(key: String, value: TraceValue)] = [
            ("screen", .string(screen.rawValue)), ("places", .string(route.places.map(\.name).joined(separator: " > "))), ("mode", .string(route.mode)),
            ("length", .double((route.metres * 10).rounded() / 10)), ("time", .double((route.seconds * 10).rounded() / 10)),
        ]
        if let name { fields.append(("name", .string(name))) }
        // The line drawn on the map, for the report and for diagnosis: `lat lon|lat lon|...`.
        if let path = route.path, !path.isEmpty { fields.append(("path", .string(Self.pathText(path)))) }
        device.record("route.shown", fields)
    }

    /// `path` as the trace writes it: `lat lon` pairs, 6 decimals (about 10 cm), joined by `|`.
    static func pathText(_ path: [GeoCoordinate]) -> String {
        path.map { "\(TraceValue.format(($0.latitude * 1e6).rounded() / 1e6)) \(TraceValue.format(($0.longitude * 1e6).rounded() / 1e6))" }.joined(separator: "|")
    }

    // MARK: Narrative 5: save

    /// Save route use case: "save" (2) opens the route-name form; with `name` the user adds the name
    /// (3) and confirms (4), and the route is saved (5). Without `name` the form stays open for a later
    /// `saveRoute(named:)` or ``cancelRouteName()``. A name left empty is refused in the form
    /// (`form.rejected`), which stays open. Refused by the database: an error message, and the route
    /// stays on the map to save again.
    public func saveRoute(named name: String?) {
        guard let route = shownRoute, screen == .map, selected == nil else { return ignored("save-route", "no new route on the map") }
        if !isNameFormOpen {
            isNameFormOpen = true
            device.record("form.shown", [("form", .string("route-name"))])
        }
        guard let typed = name else { return }
        // The name as the list shows it: spaces around it dropped. Each saved route has its own, so
        // selecting, editing and deleting by name always reach the route meant.
        let name = typed.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else {
            device.record("form.rejected", [("form", .string("route-name")), ("reason", .string("a route needs a name"))])
            return
        }
        guard !savedRoutes.contains(where: { $0.name == name }) else {
            device.record("form.rejected", [("form", .string("route-name")), ("reason", .string("a route named '\(name)' is saved already: give this one another name"))])
            return
        }
        isNameFormOpen = false
        do {
            let saved = try store.insert(name: name, route: route)
            guard !stopped else { return }   // killed in the middle of the write: shows nothing
            savedRoutes.append(saved)
            selected = saved
            device.record("route.saved", [("id", .int(saved.id)), ("name", .string(name)), ("places", .string(route.places.map(\.name).joined(separator: " > ")))])
        } catch {
            guard !stopped else { return }
            device.record("route.save-failed", [("name", .string(name)), ("reason", .string(error.description))])
            showError("Unable to save the route: \(error.description).")
        }
        device.record("form.hidden", [("form", .string("route-name"))])
        recordStored()
    }

    /// The route-name form's cancel: the form closes and nothing is saved; the route stays on the map.
    public func cancelRouteName() {
        guard isNameFormOpen else { return ignored("cancel-route-name", "the route-name form is not open") }
        isNameFormOpen = false
        device.record("form.hidden", [("form", .string("route-name")), ("by", .string("cancel"))])
    }

    // MARK: Narrative 4: select

    /// Select route use case: online the route on the map, offline on the route details screen.
    public func selectRoute(_ name: String) {
        guard screen == .routes else { return ignored("select-route", "not on the routes screen") }
        guard let route = savedRoutes.first(where: { $0.name == name }) else { return ignored("select-route", "no saved route '\(name)'") }
        selected = route
        shownRoute = route.route
        stops = route.route.places
        screen = isOnline ? .map : .routeDetails
        device.record("screen.shown", [("screen", .string(screen.rawValue)), ("name", .string(route.name))])
        announce(route.route, name: route.name)
    }

    // MARK: Narrative 6: edit

    /// Edit route use case 1-3: editing mode for the saved route on the map.
    public func editRoute() {
        guard screen == .map, let route = selected else { return ignored("edit-route", "no saved route on the map") }
        draft = route
        screen = .editing
        device.record("editing.shown", [("name", .string(route.name))])
    }

    /// In editing mode: a new name for the route.
    public func renameRoute(_ typed: String) {
        guard screen == .editing, let editing = draft else { return ignored("rename-route", "not editing") }
        let name = typed.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return ignored("rename-route", "a route needs a name: it keeps '\(editing.name)'") }
        guard !savedRoutes.contains(where: { $0.name == name && $0.id != editing.id }) else {
            return ignored("rename-route", "a route named '\(name)' is saved already: give this one another name")
        }
        draft?.name = name
        device.record("route.renamed", [("name", .string(name))])
    }

    /// Edit route use case 4-5: save the changes. Refused by the database: an error message, still
    /// editing with the changes kept.
    public func saveChanges() {
        guard screen == .editing, let edited = draft else { return ignored("save-changes", "not editing") }
        do {
            try store.update(edited)
            guard !stopped else { return }   // killed in the middle of the write: shows nothing
            if let index = savedRoutes.firstIndex(where: { $0.id == edited.id }) { savedRoutes[index] = edited }
            selected = edited
            shownRoute = edited.route
            draft = nil
            device.record("route.updated", [("id", .int(edited.id)), ("name", .string(edited.name)), ("places", .string(edited.route.places.map(\.name).joined(separator: " > ")))])
            screen = .map
            device.record("screen.shown", [("screen", .string(screen.rawValue)), ("name", .string(edited.name))])
        } catch {
            guard !stopped else { return }
            device.record("route.update-failed", [("name", .string(edited.name)), ("reason", .string(error.description))])
            showError("Unable to update the route: \(error.description).")
        }
        recordStored()
    }

    /// In editing mode: the stop `place` leaves the route; the route is planned again from its saved
    /// start through the stops left (a route keeps at least one stop).
    public func removeStop(_ place: String) {
        guard screen == .editing, let edited = draft else { return ignored("remove-stop", "not editing") }
        guard let index = stopIndex(place, in: edited) else { return ignored("remove-stop", "'\(place)' is not a stop of the route") }
        guard edited.route.places.count > 1 else { return ignored("remove-stop", "a route needs at least one stop") }
        var places = edited.route.places
        places.remove(at: index)
        replan(edited, through: places, event: "stop.removed", place: place)
    }

    /// In editing mode: the stop `place` moves to `position` (1 for the first stop); the route is
    /// planned again from its saved start through the stops in their new order.
    public func moveStop(_ place: String, to position: Int) {
        guard screen == .editing, let edited = draft else { return ignored("move-stop", "not editing") }
        guard let index = stopIndex(place, in: edited) else { return ignored("move-stop", "'\(place)' is not a stop of the route") }
        guard (1...edited.route.places.count).contains(position) else {
            return ignored("move-stop", "the route has \(edited.route.places.count) stops: position \(position) is not one of 1...\(edited.route.places.count)")
        }
        var places = edited.route.places
        let stop = places.remove(at: index)
        places.insert(stop, at: position - 1)
        replan(edited, through: places, event: "stop.moved", place: place)
    }

    private func stopIndex(_ place: String, in route: SavedRoute) -> Int? {
        route.route.places.firstIndex { $0.name == place } ?? route.route.places.firstIndex { $0.name.lowercased() == place.lowercased() }
    }

    private func replan(_ edited: SavedRoute, through places: [RoutePlace], event: String, place: String) {
        guard let route = plan(from: edited.route.start, through: places) else { return }
        var changed = edited
        changed.route = route
        draft = changed
        device.record(event, [("place", .string(place)), ("places", .string(places.map(\.name).joined(separator: " > ")))])
        announce(route, name: changed.name)
    }

    /// On the routes screen, swiping a route reveals its delete button (step 1 of the swipe course);
    /// nothing happens until the user taps it (`swipe-delete`).
    public func swipeRoute(_ name: String) {
        guard screen == .routes else { return ignored("swipe-route", "not on the routes screen") }
        guard savedRoutes.contains(where: { $0.name == name }) else { return ignored("swipe-route", "no saved route '\(name)'") }
        device.record("route.swiped", [("name", .string(name)), ("offers", .string("delete"))])
    }

    /// In editing mode: drop the changes.
    public func discardChanges() {
        guard screen == .editing, let route = selected else { return ignored("discard-changes", "not editing") }
        draft = nil
        screen = .map
        device.record("editing.discarded", [("name", .string(route.name))])
        device.record("screen.shown", [("screen", .string(screen.rawValue)), ("name", .string(route.name))])
        announce(route.route, name: route.name)
    }

    // MARK: Narrative 7: delete

    /// Delete route use case (from the map): a confirmation, then the route leaves the database.
    public func deleteShownRoute() {
        guard screen == .map, let route = selected else { return ignored("delete-route", "no saved route on the map") }
        confirmDeletion(of: route)
    }

    /// Delete route use case (by swiping on the routes screen).
    public func swipeToDelete(_ name: String) {
        guard screen == .routes else { return ignored("swipe-delete", "not on the routes screen") }
        guard let route = savedRoutes.first(where: { $0.name == name }) else { return ignored("swipe-delete", "no saved route '\(name)'") }
        confirmDeletion(of: route)
    }

    private func confirmDeletion(of route: SavedRoute) {
        guard let notifications = device.notifications else { return delete(route) }
        let prompt = UserPrompt(id: "delete-route", message: "Delete the route '\(route.name)'?", choices: ["confirm", "cancel"])
        _ = notifications.ask(prompt, timeout: nil) { [weak self] answer in
            guard let self, !self.stopped else { return }
            if answer == "confirm" {
                self.delete(route)
            } else {
                self.device.record("delete.cancelled", [("name", .string(route.name))])
            }
        }
    }

    private func delete(_ route: SavedRoute) {
        do {
            try store.delete(id: route.id)
            guard !stopped else { return }   // killed in the middle of the write: shows nothing
            savedRoutes.removeAll { $0.id == route.id }
            device.record("route.deleted", [("id", .int(route.id)), ("name", .string(route.name))])
            if selected?.id == route.id {
                selected = nil
                shownRoute = nil
                stops = []
            }
            if screen == .routes { showRoutes() }
        } catch {
            guard !stopped else { return }
            device.record("route.delete-failed", [("name", .string(route.name)), ("reason", .string(error.description))])
            showError("Unable to delete the route: \(error.description).")
        }
        recordStored()
    }

    // MARK: Helpers

    private func showError(_ message: String) {
        device.record("error.shown", [("screen", .string(screen.rawValue)), ("message", .string(message))])
    }

    /// What the database holds now, read back (so a scenario sees what is stored, not what the app thinks).
    private func recordStored() {
        do {
            let stored = try store.load()
            device.record("routes.stored", [("count", .int(stored.count)), ("names", .string(stored.map(\.name).joined(separator: ", ")))])
        } catch {
            device.record("storage.failed", [("operation", .string("load")), ("reason", .string(error.description))])
        }
    }

    private func ignored(_ action: String, _ reason: String) {
        device.record("action.ignored", [("action", .string(action)), ("reason", .string(reason))])
    }
}
