#if canImport(Network) && !DEVICESIM
import Network
#else
import DeviceSimNetwork
#endif
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Apple's sample code, unchanged inside the method: "Uploading data to a website"
// https://developer.apple.com/documentation/foundation/uploading-data-to-a-website
// The article's listings ("Prepare your data for upload", "Configure an upload request", "Create and
// start an upload task") are one function here. Its `print`s are kept: in this module `print` is the
// stand-in of AppStandIns.swift, which also keeps the line for the tests.

struct Order: Codable {
    let customerId: String
    let items: [String]
}

/// The article's three listings in a row, as an app's "place order" action.
func placeOrder() {
    let order = Order(customerId: "12345",
                      items: ["Cheese pizza", "Diet soda"])
    guard let uploadData = try? JSONEncoder().encode(order) else {
        return
    }

    let url = URL(string: "https://example.com/post")!
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")

    let task = URLSession.shared.uploadTask(with: request, from: uploadData) { data, response, error in
        if let error = error {
            print ("error: \(error)")
            return
        }
        guard let response = response as? HTTPURLResponse,
            (200...299).contains(response.statusCode) else {
            print ("server error")
            return
        }
        if let mimeType = response.mimeType,
            mimeType == "application/json",
            let data = data,
            let dataString = String(data: data, encoding: .utf8) {
            print ("got data: \(dataString)")
        }
    }
    task.resume()
}
