#if canImport(Network) && !DEVICESIM
import Network
#else
import DeviceSimNetwork
#endif
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(UIKit)
import UIKit
#endif

// Apple's sample code, unchanged: WWDC21 "Use async/await with URLSession", the first listing
// https://developer.apple.com/videos/play/wwdc2021/10095/
// (`URLSession.data(from:)`: https://developer.apple.com/documentation/foundation/urlsession/data(from:delegate:)).
// `UIImage` and `WoofError` are the session's; on Linux the stand-ins in AppStandIns.swift.

// Fetch photo with async/await
func fetchPhoto(url: URL) async throws -> UIImage
{
    let (data, response) = try await URLSession.shared.data(from: url)

    guard let httpResponse = response as? HTTPURLResponse,
          httpResponse.statusCode == 200 else {
        throw WoofError.invalidServerResponse
    }

    guard let image = UIImage(data: data) else {
        throw WoofError.unsupportedImage
    }

    return image
}
