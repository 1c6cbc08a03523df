#if canImport(Network) && !DEVICESIM
import Network
#else
import DeviceSimNetwork
#endif
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Apple's sample code, unchanged inside the methods: "Fetching website data into memory"
// https://developer.apple.com/documentation/foundation/fetching-website-data-into-memory
// The article shows the methods of a view controller with a web view; the class around them, its web
// view, load button and error handlers are this file's (AppStandIns.swift), and the class is
// `@unchecked Sendable` so that the article's `@Sendable` closures may use `self` in Swift 6 mode.

/// "Receive results with a completion handler": `URLSession.shared.dataTask(with:completionHandler:)`.
final class CompletionHandlerViewController: StandInViewController, @unchecked Sendable {
    func startLoad() {
        let url = URL(string: "https://www.example.com/")!
        let task = URLSession.shared.dataTask(with: url) { data, response, error in
            if let error = error {
                self.handleClientError(error)
                return
            }
            guard let httpResponse = response as? HTTPURLResponse,
                (200...299).contains(httpResponse.statusCode) else {
                self.handleServerError(response)
                return
            }
            if let mimeType = httpResponse.mimeType, mimeType == "text/html",
                let data = data,
                let string = String(data: data, encoding: .utf8) {
                DispatchQueue.main.async {
                    self.webView.loadHTMLString(string, baseURL: url)
                }
            }
        }
        task.resume()
    }
}

/// "Receive transfer details and results with a delegate": a session of its own with a delegate.
final class DelegateViewController: StandInViewController, URLSessionDataDelegate, @unchecked Sendable {
    private lazy var session: URLSession = {
        // DeviceSim: the article's `URLSessionConfiguration.default` as it comes cannot be routed through
        // the simulation on Linux (docs/apple-apis/URLSession.md, "Sessions with their own configuration");
        // this is the one changed line of the sample.
        #if canImport(Network) && !DEVICESIM
        let configuration = URLSessionConfiguration.default
        #else
        let configuration = SimulatedURLProtocol.sessionConfiguration(.default)
        #endif
        configuration.waitsForConnectivity = true
        return URLSession(configuration: configuration,
                          delegate: self, delegateQueue: nil)
    }()

    var receivedData: Data?

    func startLoad() {
        loadButton.isEnabled = false
        let url = URL(string: "https://www.example.com/")!
        receivedData = Data()
        let task = session.dataTask(with: url)
        task.resume()
    }

    // delegate methods

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask,
                    didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let response = response as? HTTPURLResponse,
            (200...299).contains(response.statusCode),
            let mimeType = response.mimeType,
            mimeType == "text/html" else {
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        self.receivedData?.append(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        DispatchQueue.main.async {
            self.loadButton.isEnabled = true
            if let error = error {
                // The article writes `handleClientError(error)` here, which Swift rejects inside an
                // escaping closure ("requires explicit use of 'self'"): `self.` added.
                self.handleClientError(error)
            } else if let receivedData = self.receivedData,
                let string = String(data: receivedData, encoding: .utf8) {
                self.webView.loadHTMLString(string, baseURL: task.currentRequest?.url)
            }
        }
    }
}
