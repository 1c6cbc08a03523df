import DeviceSimCampusGame
import DeviceSimDogWalk
import DeviceSimFriendLocator
import DeviceSimRoutes
import DeviceSimScenario
import DeviceSimTaskList

// The events each bundled app records and their fields (Scenarios/README.md describes them), so
// `devicesim validate` checks expectations' event names and `where:` fields. BundledAppEventTests
// runs every bundled scenario and checks that each event of its trace is here with its fields.

extension DogWalkScenarioApp: ScenarioAppEvents {
    public static let events: [String: [String]] = [
        "action.ignored": ["action", "reason"],
        "app.started": [],
        "business-menu.hidden": ["buttons", "by", "close-button", "lat", "lon", "marker", "pee-button", "poo-button", "service"],
        "business-menu.shown": ["buttons", "by", "close-button", "lat", "lon", "marker", "pee-button", "poo-button", "service"],
        "clean-up-message.hidden": ["for", "message"],
        "clean-up-message.shown": ["for", "message"],
        "delete-button.shown": ["reason", "record"],
        "dog-friends.none": ["id", "name"],
        "dog-profile.added": ["add", "asks", "date-of-birth", "edit", "id", "mode", "name", "reason", "sex"],
        "dog-profile.conflict": ["attribute", "dog", "kept", "reason", "yours"],
        "dog-profile.dialog-closed": ["add", "asks", "date-of-birth", "edit", "id", "mode", "name", "reason", "sex"],
        "dog-profile.dialog-shown": ["add", "asks", "date-of-birth", "edit", "id", "mode", "name", "reason", "sex"],
        "dog-profile.filled": ["add", "asks", "date-of-birth", "edit", "id", "mode", "name", "reason", "sex"],
        "dog-profile.save-failed": ["add", "asks", "date-of-birth", "edit", "id", "mode", "name", "reason", "sex"],
        "dog-profile.updated": ["add", "asks", "date-of-birth", "edit", "id", "mode", "name", "reason", "sex"],
        "dog.selected": ["id", "name"],
        "form.shown": ["asks", "credential", "dog-profile", "form", "new-password", "sign-up"],
        "location.recovered": ["lat", "lon"],
        "location.unavailable": ["keeping", "lat", "lon"],
        "map.center-failed": ["reason"],
        "map.centered": ["current", "last-known", "lat", "lon", "source"],
        "map.followed": ["lat", "lon"],
        "map.record-shown": ["id", "kind", "lat", "local-time", "lon", "overlapping"],
        "map.records-shown": ["aggregated", "markers", "pees", "poos", "records"],
        "map.shown": ["lat", "lon"],
        "marker.moved": ["accuracy", "lat", "lon"],
        "marker.shown": ["accuracy", "lat", "lon"],
        "new-password.rejected": ["email", "reason"],
        "new-password.set": ["email", "reason"],
        "record-list.closed": ["close-button", "position", "records"],
        "record-list.item": ["close-button", "id", "kind", "lat", "local-time", "lon", "position", "records"],
        "record-list.item-selected": ["close-button", "id", "kind", "lat", "local-time", "lon", "position", "records"],
        "record-list.shown": ["close-button", "position", "records"],
        "record.delete-failed": ["reason", "record"],
        "record.deleted": ["id", "kind", "lat", "local-time", "lon", "reason", "record", "uid"],
        "record.kept": ["reason", "record"],
        "record.placed": ["id", "kind", "lat", "local-time", "lon", "reason", "uid"],
        "record.placing": ["id", "kind", "lat", "local-time", "lon", "reason"],
        "record.refused": ["kind", "reason"],
        "record.save-failed": ["id", "kind", "lat", "local-time", "lon", "reason"],
        "record.selected": ["id", "kind", "lat", "list-link", "local-time", "lon", "pee-percent", "pees", "poo-percent", "poos", "record", "records"],
        "service.started": ["interval"],
        "service.stopped": [],
        "sign-in.failed": ["email", "reason"],
        "sign-in.options-hidden": ["options"],
        "sign-in.options-shown": ["options"],
        "sign-in.requested": ["email", "reason"],
        "sign-in.succeeded": ["email", "reason"],
        "sign-up.failed": ["email", "next", "reason"],
        "sign-up.requested": ["email", "next", "reason"],
        "sign-up.succeeded": ["email", "next", "reason"],
        "statistics.closed": ["by"],
        "statistics.shown": ["lat", "list-link", "lon", "pee-percent", "pees", "poo-percent", "poos", "record", "records"],
        "sync.failed": ["reason", "unsent"],
        "sync.started": ["changes"],
        "sync.succeeded": ["dogs", "records", "revision", "sent"],
        "user-data.corrupt": ["action", "file", "reason", "what"],
        "user-data.downloaded": ["account", "dogs", "offline", "records"],
        "user-data.initialized": ["account", "dogs", "offline", "records"],
        "user-data.load-failed": ["action", "file", "reason", "what"],
        "user-data.loaded": ["account", "dogs", "offline", "records"],
        "user-data.none": ["account", "dogs", "offline", "records"],
        "user-data.save-failed": ["action", "file", "reason", "what"],
        "user-data.saved": ["account", "dogs", "records", "what"],
    ]
    public static let serverEvents: [String: [String]] = [
        "account.authenticated": ["dogs", "email", "reason", "records"],
        "account.authentication-failed": ["dogs", "email", "reason", "records"],
        "account.new-password-required": ["dogs", "email", "reason", "records"],
        "account.password-changed": ["dogs", "email", "reason", "records"],
        "account.registered": ["dogs", "email", "password", "reason", "records"],
        "account.registration-refused": ["dogs", "email", "password", "reason", "records"],
        "account.sync-refused": ["reason"],
        "account.sync-repeated": ["email", "request"],
        "account.synced": ["applied", "changes", "dogs", "email", "records", "refused", "request", "revision"],
        "account.temporary-password-sent": ["dogs", "email", "password", "reason", "records"],
        "account.token-issued": ["dogs", "email", "reason", "records"],
        "account.user-data-created": ["dogs", "email", "password", "reason", "records"],
        "account.user-data-served": ["dogs", "email", "reason", "records"],
    ]
}

extension FriendLocatorScenarioApp: ScenarioAppEvents {
    public static let events: [String: [String]] = [
        "action.ignored": ["action", "reason"],
        "app.error": ["operation", "reason", "retry-in"],
        "app.started": ["account", "auto-locate", "auto-ping", "group", "signed-in"],
        "bluetooth.disabled": ["by", "message", "reason"],
        "friend.added": ["email", "friend", "group", "message"],
        "friend.not-found": ["email", "friend", "group", "message"],
        "friends.none": ["area", "count", "friends", "message"],
        "friends.shown": ["area", "count", "friends", "message"],
        "hotspot.entered": ["hotspot", "resumed"],
        "hotspot.left": ["hotspot", "while"],
        "locate.declined": ["answer", "hotspot", "method"],
        "locate.failed": ["bluetooth-off", "hotspot", "method", "no-beacon-in-range", "no-beacons-in-hotspot", "reason"],
        "locate.started": ["hotspot", "method"],
        "located": ["beacon", "bluetooth", "distance", "hotspot", "lat", "lon", "manual", "method", "proximity"],
        "location.off": ["by", "message", "reason"],
        "location.off-failed": ["by", "message", "reason"],
        "location.synced": ["attempt", "hotspot", "precision", "queued", "reason"],
        "location.withheld": ["hotspot", "reason"],
        "ping.declined": ["answer", "hotspot", "no", "none"],
        "ping.dropped": ["group", "hotspot", "reason"],
        "ping.failed": ["attempt", "group", "queued", "reason"],
        "ping.received": ["from", "group", "hotspot", "precision"],
        "ping.sent": ["attempt", "beacon", "group", "hotspot", "manual", "precision", "recipients"],
        "sign-up.failed": ["account", "email", "message"],
        "signed-up": ["account", "email", "message"],
        "signup.shown": ["account", "email", "message"],
        "storage.failed": ["operation", "reason"],
        "sync.failed": ["attempt", "hotspot", "precision", "queued", "reason"],
    ]
    public static let serverEvents: [String: [String]] = [
        "backend.failed": ["account", "operation"],
        "backend.friend-added": ["account", "friend", "group"],
        "backend.friend-not-found": ["account", "email"],
        "backend.location-stored": ["account", "hotspot", "precision"],
        "backend.ping": ["account", "group", "hotspot", "precision", "recipients"],
        "backend.ping-refused": ["account", "reason"],
        "backend.quit": ["account", "deleted"],
        "backend.repeated": ["account", "operation", "request"],
        "backend.sign-up-refused": ["account", "email"],
        "backend.signed-up": ["account", "email"],
    ]
}

extension TaskListScenarioApp: ScenarioAppEvents {
    public static let events: [String: [String]] = [
        "action.ignored": ["action", "reason"],
        "app.started": ["account", "signed-in"],
        "download.cancelled": ["account", "count", "merged", "reason", "revision", "showing"],
        "download.failed": ["account", "count", "merged", "reason", "revision", "showing"],
        "download.started": ["account", "count", "merged", "reason", "revision", "showing"],
        "download.succeeded": ["account", "count", "merged", "reason", "revision", "showing"],
        "form.hidden": ["add", "edit", "form", "task"],
        "form.shown": ["add", "asks", "credential", "dog-profile", "edit", "form", "new-password", "sign-up", "task"],
        "screen.shown": ["accounts", "add-account", "count", "important", "offers", "screen", "sign-in", "signing-out", "tasks", "waiting-for-account"],
        "sign-in.cancelled": ["account", "method", "step"],
        "sign-out.cancelled": ["unsent"],
        "signed-in": ["account", "method", "step"],
        "signed-out": ["account", "method", "step"],
        "storage.failed": ["attempt", "load", "operation", "reason", "save"],
        "task.added": ["count", "important", "task", "text"],
        "task.deleted": ["count", "important", "task", "text"],
        "task.edited": ["count", "important", "task", "text"],
        "task.marked": ["count", "important", "task", "text"],
        "task.not-found": ["task"],
        "upload.conflict": ["count", "reason", "revision", "unsent"],
        "upload.failed": ["count", "reason", "revision", "unsent"],
        "upload.resent": ["count"],
        "upload.settled": ["applied", "revision"],
        "upload.started": ["count", "reason", "revision", "unsent"],
        "upload.succeeded": ["count", "reason", "revision", "unsent"],
    ]
    public static let serverEvents: [String: [String]] = [
        "tasks.conflict": ["account", "based-on", "count", "operation", "request", "revision"],
        "tasks.downloaded": ["account", "based-on", "count", "operation", "request", "revision"],
        "tasks.failed": ["account", "based-on", "count", "operation", "request", "revision"],
        "tasks.repeated": ["account", "based-on", "count", "operation", "request", "revision"],
        "tasks.uploaded": ["account", "based-on", "count", "operation", "request", "revision"],
    ]
}

extension CampusGameScenarioApp: ScenarioAppEvents {
    public static let events: [String: [String]] = [
        "game.error": ["message", "operation", "reason"],
        "game.join-shown": ["added", "game", "message", "objectives"],
        "objective.already-achieved": ["by", "device", "message", "objective", "server"],
        "objective.confirmed": ["daily", "info", "objective", "points", "weekly"],
        "objective.not-here": ["distance", "message", "nearest", "objective"],
        "objective.pending": ["message", "objective"],
        "objective.queued": ["message"],
        "objectives.shown": ["count", "game", "objectives"],
        "scoreboard.shown": ["daily", "period", "rows", "since", "weekly", "you"],
    ]
    public static let serverEvents: [String: [String]] = [
        "game.achieved": ["account", "added", "daily", "game", "objective", "operation", "points", "weekly"],
        "game.already-achieved": ["account", "added", "daily", "game", "objective", "operation", "points", "weekly"],
        "game.failed": ["account", "added", "daily", "game", "objective", "operation", "points", "weekly"],
        "game.joined": ["account", "added", "daily", "game", "objective", "operation", "points", "weekly"],
        "game.over": ["account", "game", "objective", "today"],
        "game.position-rejected": ["account", "added", "daily", "game", "objective", "operation", "points", "weekly"],
        "game.repeated": ["account", "objective", "request"],
    ]
}

extension RoutesScenarioApp: ScenarioAppEvents {
    public static let events: [String: [String]] = [
        "action.ignored": ["action", "reason"],
        "app.started": ["online", "saved"],
        "delete.cancelled": ["name"],
        "editing.discarded": ["name"],
        "editing.shown": ["name"],
        "error.shown": ["message", "screen"],
        "form.hidden": ["by", "form"],
        "form.rejected": ["form", "reason"],
        "form.shown": ["form"],
        "location.shown": ["lat", "lon"],
        "route.delete-failed": ["name", "reason"],
        "route.deleted": ["id", "name"],
        "route.failed": ["places", "reason"],
        "route.renamed": ["name"],
        "route.save-failed": ["name", "reason"],
        "route.saved": ["id", "name", "places"],
        "route.shown": ["length", "mode", "name", "places", "screen", "time"],
        "route.swiped": ["name", "offers"],
        "route.update-failed": ["name", "reason"],
        "route.updated": ["id", "name", "places"],
        "routes.stored": ["count", "names"],
        "screen.shown": ["count", "name", "names", "screen"],
        "search.results": ["count", "message", "places", "query", "state"],
        "settings.ignored": ["reason", "route"],
        "stop.moved": ["place", "places"],
        "stop.removed": ["place", "places"],
        "storage.failed": ["load", "operation", "reason", "save"],
    ]
    public static let serverEvents: [String: [String]] = [
        :
    ]
}
