import ArgumentParser

/// The subcommands that talk to a real gpsd through libgps (`live`, `record`). libgps is a Linux
/// (Debian) package here, so the CLI carries them where `DeviceSimGPSD` is built; elsewhere the rest
/// of the CLI still builds.
#if canImport(DeviceSimGPSD)
let liveGPSSubcommands: [any ParsableCommand.Type] = [LiveCommand.self, RecordCommand.self]
#else
let liveGPSSubcommands: [any ParsableCommand.Type] = []
#endif
