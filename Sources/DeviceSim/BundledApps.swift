import DeviceSimCampusGame
import DeviceSimDogWalk
import DeviceSimFriendLocator
import DeviceSimRoutes
import DeviceSimScenario
import DeviceSimTaskList

/// The five apps that ship with DeviceSim, registered the way a user's app is: by the code that wants
/// scenario files to name them, never by the scenario runner itself.
///
/// ```swift
/// import DeviceSim
/// import DeviceSimCLI
///
/// DeviceSimCommandLine.main(apps: BundledApps.all + [CommuteScenarioApp.self])
/// ```
///
/// In a test, register them before parsing a scenario file that names one:
///
/// ```swift
/// try ScenarioAppRegistry.register(BundledApps.all)
/// let scenario = try ScenarioParser.parse(contentsOf: "Scenarios/dog-walk/walk-2km.yaml")
/// ```
public enum BundledApps {
    /// The friend locator, the dog walk, the task list, the campus game and the routes app, in the
    /// order `devicesim` lists them.
    public static let all: [any ScenarioApp.Type] = [
        DogWalkScenarioApp.self,
        FriendLocatorScenarioApp.self,
        TaskListScenarioApp.self,
        CampusGameScenarioApp.self,
        RoutesScenarioApp.self,
    ]
}
