import DeviceSimServer

/// One device's side of the ``SimulatedTaskServer``: each request crosses the device's
/// ``ServerConnection`` (latency, drops in flight, timeouts) and is handled by the server when it
/// arrives.
///
/// ```swift
/// let backend = server.client(connection: simulation.serverConnection(of: device, app: "task-list", latency: .milliseconds(200)))
/// ```
final class TaskServerClient: TaskBackend {
    let server: SimulatedTaskServer
    let connection: ServerConnection

    init(server: SimulatedTaskServer, connection: ServerConnection) {
        self.server = server
        self.connection = connection
    }

    func download(account: String) async throws(BackendError) -> TaskListSnapshot {
        try await connection.send("download") { () throws(BackendError) in try server.serveDownload(account: account) }
    }

    func upload(account: String, tasks: [TaskItem], basedOn revision: Int, requestID: String) async throws(BackendError) -> TaskUploadOutcome {
        try await connection.send("upload") { () throws(BackendError) in
            try server.serveUpload(account: account, tasks: tasks, basedOn: revision, requestID: requestID)
        }
    }
}
