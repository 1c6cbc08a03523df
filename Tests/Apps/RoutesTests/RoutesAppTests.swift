import DeviceSim
import DeviceSimRoutes
import DeviceSimTesting
import Testing

/// The routes app through the HAL: a simulated phone, a map service and a routes database written
/// here (the service knows a few places and "routes" in straight lines; the database can refuse any
/// write on request).
@Suite struct RoutesAppTests {
    static let here = GeoCoordinate(latitude: 60.1699, longitude: 24.9384)
    static let places = [
        RoutePlace(name: "Kamppi", coordinate: GeoCoordinate(latitude: 60.1687, longitude: 24.9316)),
        RoutePlace(name: "Kiasma", coordinate: GeoCoordinate(latitude: 60.1719, longitude: 24.9366)),
        RoutePlace(name: "Kauppatori", coordinate: GeoCoordinate(latitude: 60.1675, longitude: 24.9525)),
        RoutePlace(name: "Suomenlinna", coordinate: GeoCoordinate(latitude: 60.1454, longitude: 24.9881)),
    ]

    /// Suggestions by name; routes along straight lines at walking pace; "Suomenlinna" unreachable.
    final class StraightLineMaps: MapService {
        private(set) var calls = 0

        func suggestions(for query: String, near position: GeoCoordinate) -> [RoutePlace] {
            calls += 1
            return RoutesAppTests.places.filter { $0.name.lowercased().contains(query.lowercased()) }
        }

        func fastestRoute(from start: GeoCoordinate, through places: [RoutePlace]) throws(MapServiceError) -> PlannedRoute {
            calls += 1
            if let island = places.first(where: { $0.name == "Suomenlinna" }) { throw .unreachable(place: island.name) }
            var metres = 0.0, from = start
            for place in places {
                metres += from.distance(to: place.coordinate)
                from = place.coordinate
            }
            return PlannedRoute(start: start, places: places, mode: "foot", metres: metres, seconds: metres / 1.4)
        }
    }

    /// An in-memory database whose writes (or reads) fail while their operation is in `failing`.
    final class FaultyRoutesStore: RoutesStore {
        enum Operation { case load, insert, update, delete }
        let stored: InMemoryRoutesStore
        var failing: Set<Operation> = []

        init(_ routes: [SavedRoute] = []) { stored = InMemoryRoutesStore(routes) }

        private func check(_ operation: Operation) throws(StorageError) {
            if failing.contains(operation) { throw .writeFailed(key: "routes", reason: "injected fault") }
        }
        func load() throws(StorageError) -> [SavedRoute] {
            try check(.load)
            return try stored.load()
        }
        func insert(name: String, route: PlannedRoute) throws(StorageError) -> SavedRoute {
            try check(.insert)
            return try stored.insert(name: name, route: route)
        }
        func update(_ route: SavedRoute) throws(StorageError) {
            try check(.update)
            try stored.update(route)
        }
        func delete(id: Int) throws(StorageError) {
            try check(.delete)
            try stored.delete(id: id)
        }
        var names: [String] { stored.routes.map(\.name) }
    }

    struct Setup {
        let simulation: TestSimulation
        let phone: TestDevice
        let maps: StraightLineMaps
        let store: FaultyRoutesStore
        let app: RoutesApp

        func events(_ name: String) -> [TraceEvent] { simulation.events(named: name) }
    }

    static func savedRoute(_ id: Int, _ name: String, through names: [String]) -> SavedRoute {
        let maps = StraightLineMaps()
        let route = try! maps.fastestRoute(from: here, through: names.map { name in places.first { $0.name == name }! })
        return SavedRoute(id: id, name: name, route: route)
    }

    /// A phone at ``here`` with the app started (after the GPS's first fix when `online`).
    static func start(online: Bool = true, saved: [SavedRoute] = []) throws -> Setup {
        let simulation = TestSimulation(seed: 1)
        let phone = simulation.addDevice("phone", at: here)
        phone.setOnline(online)
        let maps = StraightLineMaps(), store = FaultyRoutesStore(saved)
        let app = RoutesApp(device: phone.device, maps: maps, store: store)
        try simulation.advance(by: .seconds(5))
        app.start()
        try simulation.advance(by: .seconds(1))
        return Setup(simulation: simulation, phone: phone, maps: maps, store: store, app: app)
    }

    /// Online on the map with a route to `names` in order.
    static func routeShown(to names: [String], saved: [SavedRoute] = []) throws -> Setup {
        let setup = try start(saved: saved)
        for name in names {
            setup.app.search(String(name.prefix(3)))
            setup.app.selectSuggestion(name)
        }
        return setup
    }

    // MARK: User steps: the name form, swiping, stops while editing

    @Test func aNameFormCancelledOrLeftEmptySavesNothing() throws {
        let setup = try Self.routeShown(to: ["Kamppi"])
        setup.app.saveRoute(named: nil)
        setup.app.cancelRouteName()
        setup.app.saveRoute(named: "  ")
        #expect(setup.store.names.isEmpty)
        #expect(setup.events("form.rejected").count == 1)
        setup.app.saveRoute(named: "Lunch")
        #expect(setup.store.names == ["Lunch"])
        #expect(setup.events("form.shown").count == 2)
        #expect(setup.events("action.ignored").isEmpty)
    }

    @Test func stopsRemovedOrMovedWhileEditingArePlannedFromTheSavedStart() throws {
        let saved = Self.savedRoute(1, "Tour", through: ["Kamppi", "Kiasma", "Kauppatori"])
        let setup = try Self.start(saved: [saved])
        setup.app.openRoutes()
        setup.app.swipeRoute("Tour")
        #expect(setup.events("route.swiped").count == 1 && setup.events("prompt.shown").isEmpty)
        setup.app.selectRoute("Tour")
        setup.app.editRoute()
        setup.app.removeStop("Kiasma")
        setup.app.moveStop("Kauppatori", to: 1)
        setup.app.moveStop("Kamppi", to: 3)             // only two stops left: refused
        setup.app.removeStop("Nowhere")
        setup.app.saveChanges()
        let stored = try #require(setup.store.stored.routes.first)
        #expect(stored.route.places.map(\.name) == ["Kauppatori", "Kamppi"])
        #expect(stored.route.start == saved.route.start)
        #expect(setup.events("action.ignored").count == 2)
    }

    // MARK: Opening
    // MARK: Opening

    @Test func openingOnlineShowsTheMapAtTheCurrentLocation() throws {
        let setup = try Self.start(saved: [Self.savedRoute(1, "Lunch", through: ["Kamppi"])])
        #expect(setup.app.screen == .map)
        let shown = try #require(setup.events("location.shown").first?.coordinate)
        #expect(shown.distance(to: Self.here) < 30)
        #expect(setup.events("screen.shown").map { $0["screen"] } == [.string("map")])
    }

    @Test func openingOfflineShowsTheSavedRoutesWithoutAskingTheMapService() throws {
        let setup = try Self.start(online: false, saved: [Self.savedRoute(1, "Lunch", through: ["Kamppi"]), Self.savedRoute(2, "Art", through: ["Kiasma"])])
        #expect(setup.app.screen == .routes)
        let screen = try #require(setup.events("screen.shown").last)
        #expect(screen["screen"] == .string("routes") && screen["count"] == .int(2) && screen["names"] == .string("Lunch, Art"))
        #expect(setup.maps.calls == 0)
        // The map service is not asked offline: a search shows the error state.
        setup.app.openMap()
        setup.app.search("kamp")
        #expect(setup.events("search.results").last?["state"] == .string("error"))
        #expect(setup.app.suggestions.isEmpty && setup.maps.calls == 0)
    }

    @Test func aDatabaseThatCannotBeReadStillOpensTheApp() throws {
        let simulation = TestSimulation(seed: 1)
        let phone = simulation.addDevice("phone", at: Self.here)
        phone.setOnline(false)
        let store = FaultyRoutesStore([Self.savedRoute(1, "Lunch", through: ["Kamppi"])])
        store.failing = [.load]
        let app = RoutesApp(device: phone.device, maps: StraightLineMaps(), store: store)
        app.start()
        #expect(app.screen == .routes && app.savedRoutes.isEmpty)
        #expect(simulation.events(named: "storage.failed").first?["operation"] == .string("load"))
        #expect(store.names == ["Lunch"])  // Nothing was written over.
    }

    // MARK: Search and the fastest route

    @Test func searchShowsSuggestionsOrTheEmptyState() throws {
        let setup = try Self.start()
        setup.app.search("ka")
        let found = try #require(setup.events("search.results").last)
        #expect(found["state"] == .string("suggestions") && found["count"] == .int(2) && found["places"] == .string("Kamppi, Kauppatori"))
        setup.app.search("Tampere")
        #expect(setup.events("search.results").last?["state"] == .string("empty"))
        #expect(setup.app.suggestions.isEmpty)
        // Losing the connection: the error state.
        setup.phone.setOnline(false)
        setup.app.search("ka")
        #expect(setup.events("search.results").last?["state"] == .string("error"))
    }

    @Test func eachSelectedPlaceIsTheNextStopOfTheRoute() throws {
        let setup = try Self.routeShown(to: ["Kiasma", "Kauppatori"])
        let route = try #require(setup.app.shownRoute)
        #expect(route.places.map(\.name) == ["Kiasma", "Kauppatori"])
        // From where the GPS put the phone when the route was planned.
        #expect(route.start.distance(to: Self.here) < 30)
        let expected = route.start.distance(to: Self.places[1].coordinate) + Self.places[1].coordinate.distance(to: Self.places[2].coordinate)
        #expect(abs(route.metres - expected) < 1e-6)
        let shown = try #require(setup.events("route.shown").last)
        #expect(shown["places"] == .string("Kiasma > Kauppatori") && shown["length"] == .double((expected * 10).rounded() / 10))
    }

    @Test func anUnreachablePlaceLeavesTheRouteAsItWas() throws {
        let setup = try Self.routeShown(to: ["Kiasma"])
        setup.app.search("suomen")
        setup.app.selectSuggestion("Suomenlinna")
        #expect(setup.events("route.failed").last?["reason"] == .string("'Suomenlinna' cannot be reached by road"))
        #expect(setup.app.shownRoute?.places.map(\.name) == ["Kiasma"])
        // The refused place is not kept as a stop: the next one follows Kiasma.
        setup.app.search("kaup")
        setup.app.selectSuggestion("Kauppatori")
        #expect(setup.app.shownRoute?.places.map(\.name) == ["Kiasma", "Kauppatori"])
    }

    @Test func aPlaceNotAmongTheSuggestionsIsIgnored() throws {
        let setup = try Self.start()
        setup.app.search("kiasma")
        setup.app.selectSuggestion("Kamppi")
        #expect(setup.app.shownRoute == nil)
        #expect(setup.events("action.ignored").last?["action"] == .string("select-suggestion"))
    }

    // MARK: Save

    @Test func aRefusedSaveShowsTheErrorAndKeepsTheRouteToSaveAgain() throws {
        let setup = try Self.routeShown(to: ["Kamppi"])
        setup.store.failing = [.insert]
        setup.app.saveRoute(named: "Lunch")
        #expect(setup.events("error.shown").last?["message"] == .string("Unable to save the route: \(StorageError.writeFailed(key: "routes", reason: "injected fault").description)."))
        #expect(setup.store.names.isEmpty && setup.app.savedRoutes.isEmpty)
        #expect(setup.app.shownRoute?.places.map(\.name) == ["Kamppi"] && setup.app.screen == .map)
        #expect(setup.events("routes.stored").last?["count"] == .int(0))
        // The fault clears: the same route saves.
        setup.store.failing = []
        setup.app.saveRoute(named: "Lunch")
        #expect(setup.store.names == ["Lunch"] && setup.app.savedRoutes.map(\.name) == ["Lunch"])
        #expect(setup.store.stored.routes.first?.route == setup.app.shownRoute)
        #expect(setup.events("routes.stored").last?["names"] == .string("Lunch"))
    }

    // MARK: Select

    @Test func aSavedRouteOpensOnTheMapOnlineAndOnTheDetailsScreenOffline() throws {
        let saved = [Self.savedRoute(1, "Lunch", through: ["Kamppi"]), Self.savedRoute(2, "Tour", through: ["Kiasma", "Kauppatori"])]
        let online = try Self.start(saved: saved)
        online.app.openRoutes()
        online.app.selectRoute("Tour")
        #expect(online.app.screen == .map && online.app.shownRoute == saved[1].route && online.app.selected == saved[1])
        #expect(online.events("route.shown").last?["name"] == .string("Tour"))

        let offline = try Self.start(online: false, saved: saved)
        offline.app.selectRoute("Lunch")
        #expect(offline.app.screen == .routeDetails && offline.app.shownRoute == saved[0].route)
        #expect(offline.maps.calls == 0)
    }

    // MARK: Edit

    @Test func aRefusedUpdateStaysInEditingModeWithTheChanges() throws {
        let setup = try Self.start(saved: [Self.savedRoute(1, "Lunch", through: ["Kamppi"])])
        setup.app.openRoutes()
        setup.app.selectRoute("Lunch")
        setup.app.editRoute()
        #expect(setup.app.screen == .editing)
        setup.app.renameRoute("Long lunch")
        setup.app.search("kias")
        setup.app.selectSuggestion("Kiasma")
        setup.store.failing = [.update]
        setup.app.saveChanges()
        #expect(setup.app.screen == .editing)
        #expect(setup.events("error.shown").last?["message"]?.description.hasPrefix("Unable to update the route") == true)
        #expect(setup.store.names == ["Lunch"] && setup.store.stored.routes[0].route.places.map(\.name) == ["Kamppi"])
        // Nothing lost: saving again once the database accepts stores the rename and the new stop.
        setup.store.failing = []
        setup.app.saveChanges()
        #expect(setup.app.screen == .map)
        #expect(setup.store.names == ["Long lunch"] && setup.store.stored.routes[0].route.places.map(\.name) == ["Kamppi", "Kiasma"])
        #expect(setup.app.savedRoutes.map(\.name) == ["Long lunch"] && setup.app.selected?.name == "Long lunch")
    }

    @Test func discardingTheChangesKeepsTheSavedRoute() throws {
        let saved = Self.savedRoute(1, "Lunch", through: ["Kamppi"])
        let setup = try Self.start(saved: [saved])
        setup.app.openRoutes()
        setup.app.selectRoute("Lunch")
        setup.app.editRoute()
        setup.app.renameRoute("Something else")
        // While editing, leaving for another screen is refused.
        setup.app.openRoutes()
        #expect(setup.app.screen == .editing && setup.events("action.ignored").last?["action"] == .string("open-routes"))
        setup.app.discardChanges()
        #expect(setup.app.screen == .map && setup.app.selected == saved && setup.app.shownRoute == saved.route)
        #expect(setup.store.stored.routes == [saved])
        // Editing again starts from the saved route, not from the discarded changes.
        setup.app.editRoute()
        setup.app.saveChanges()
        #expect(setup.store.stored.routes == [saved])
    }

    // MARK: Delete

    @Test func deletingFromTheMapAsksFirstAndCanBeCancelled() throws {
        let setup = try Self.start(saved: [Self.savedRoute(1, "Lunch", through: ["Kamppi"])])
        setup.app.openRoutes()
        setup.app.selectRoute("Lunch")
        setup.phone.answer(prompt: "delete-route", with: "cancel", after: .seconds(2))
        setup.app.deleteShownRoute()
        try setup.simulation.advance(by: .seconds(1))
        #expect(setup.store.names == ["Lunch"])  // Not before the answer.
        try setup.simulation.advance(by: .seconds(2))
        #expect(setup.events("delete.cancelled").count == 1 && setup.store.names == ["Lunch"] && setup.app.selected != nil)

        setup.phone.answer(prompt: "delete-route", with: "confirm", after: .seconds(1))
        setup.app.deleteShownRoute()
        try setup.simulation.advance(by: .seconds(2))
        #expect(setup.store.names.isEmpty && setup.app.savedRoutes.isEmpty)
        #expect(setup.app.selected == nil && setup.app.shownRoute == nil)
        #expect(setup.events("route.deleted").last?["name"] == .string("Lunch"))
    }

    @Test func aRefusedSwipeDeleteShowsTheErrorAndKeepsTheRoute() throws {
        let setup = try Self.start(online: false, saved: [Self.savedRoute(1, "Lunch", through: ["Kamppi"]), Self.savedRoute(2, "Art", through: ["Kiasma"])])
        setup.store.failing = [.delete]
        setup.phone.answer(prompt: "delete-route", with: "confirm")
        setup.app.swipeToDelete("Art")
        try setup.simulation.advance(by: .seconds(1))
        #expect(setup.events("route.delete-failed").last?["name"] == .string("Art"))
        #expect(setup.events("error.shown").last?["message"]?.description.hasPrefix("Unable to delete the route") == true)
        #expect(setup.store.names == ["Lunch", "Art"] && setup.app.savedRoutes.map(\.name) == ["Lunch", "Art"])
        #expect(setup.app.screen == .routes)
        // Once the database accepts, the same swipe deletes it and the list shows what is left.
        setup.store.failing = []
        setup.phone.answer(prompt: "delete-route", with: "confirm")
        setup.app.swipeToDelete("Art")
        try setup.simulation.advance(by: .seconds(1))
        #expect(setup.store.names == ["Lunch"])
        let screen = try #require(setup.events("screen.shown").last)
        #expect(screen["count"] == .int(1) && screen["names"] == .string("Lunch"))
    }

    @Test func aStoppedAppIgnoresALateConfirmation() throws {
        let setup = try Self.start(online: false, saved: [Self.savedRoute(1, "Lunch", through: ["Kamppi"])])
        setup.phone.answer(prompt: "delete-route", with: "confirm", after: .seconds(5))
        setup.app.swipeToDelete("Lunch")
        setup.app.stop()
        try setup.simulation.advance(by: .seconds(10))
        #expect(setup.store.names == ["Lunch"] && setup.events("route.deleted").isEmpty)
    }
}
