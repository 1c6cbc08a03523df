import DeviceSimHAL
import DeviceSimNMEA
import Foundation

/// Every position an NMEA byte stream carries, in order.
struct NMEADecoderBridge {
    mutating func positions(_ data: Data) -> [GeoCoordinate] {
        var decoder = NMEADecoder()
        var positions: [GeoCoordinate] = []
        data.withUnsafeBytes { bytes in
            decoder.feedSentences(bytes) { _, state in
                if let lat = state.latitude, let lon = state.longitude { positions.append(GeoCoordinate(latitude: lat, longitude: lon)) }
            }
        }
        return positions
    }
}
