import ArgumentParser

/// `devicesim`: run mobile-app flows against a simulated (or live) device.
@main
struct DeviceSimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devicesim",
        abstract: "Run mobile-app flows against a simulated phone: scenarios in virtual time, NMEA tools, live GPS through gpsd.",
        discussion: """
            Exit codes: 0 every scenario passed, 1 a scenario failed, 2 invalid input or usage.
            """,
        version: "0.1.0",
        subcommands: [
            // Each subcommand lives in a file of its own in this folder.
        ]
    )
}
