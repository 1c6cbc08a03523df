import DeviceSimFriendLocator
import DeviceSimTesting

extension TestSimulation {
    /// The friend-locator server the devices share, with the world's hotspots. Unless
    /// ``makeBackend(accounts:configuration:)`` made one first, it has an account per device added so
    /// far (`<id>@example.org`), all friends.
    var backend: FriendLocatorServer {
        sharedService { makeServer(accounts: FriendLocatorServer.Account.allFriends(deviceIDs)) }
    }

    /// Creates the shared server with these accounts (before ``backend`` is first used).
    @discardableResult
    func makeBackend(accounts: [FriendLocatorServer.Account], configuration: FriendLocatorServer.Configuration = .init()) -> FriendLocatorServer {
        sharedService { makeServer(accounts: accounts, configuration: configuration) }
    }

    private func makeServer(accounts: [FriendLocatorServer.Account], configuration: FriendLocatorServer.Configuration = .init()) -> FriendLocatorServer {
        FriendLocatorServer(scheduler: scheduler, events: trace, configuration: configuration, hotspots: world?.world.hotspotInfos ?? [], accounts: accounts)
    }
}
