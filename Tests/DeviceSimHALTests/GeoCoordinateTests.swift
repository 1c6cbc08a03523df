import DeviceSimHAL
import Testing

@Suite struct GeoCoordinateTests {
    let brandenburgGate = GeoCoordinate(latitude: 52.516275, longitude: 13.377704)
    let tvTower = GeoCoordinate(latitude: 52.520815, longitude: 13.409419)

    @Test func distanceMatchesAKnownValue() {
        // 2.20 km by the haversine formula on the mean Earth radius.
        #expect(abs(brandenburgGate.distance(to: tvTower) - 2_201) < 5)
        #expect(brandenburgGate.distance(to: brandenburgGate) == 0)
    }

    @Test func oneDegreeOfLatitudeIsAbout111Kilometres() {
        let a = GeoCoordinate(latitude: 0, longitude: 0), b = GeoCoordinate(latitude: 1, longitude: 0)
        #expect(abs(a.distance(to: b) - 111_195) < 1)
        #expect(abs(a.bearing(to: b)) < 1e-9)
        #expect(abs(b.bearing(to: a) - 180) < 1e-9)
    }

    @Test func interpolationStaysOnTheGreatCircle() {
        let half = brandenburgGate.interpolated(to: tvTower, fraction: 0.5)
        let total = brandenburgGate.distance(to: tvTower)
        #expect(abs(brandenburgGate.distance(to: half) - total / 2) < 0.01)
        #expect(abs(half.distance(to: tvTower) - total / 2) < 0.01)
        #expect(brandenburgGate.interpolated(to: tvTower, fraction: 0) == brandenburgGate)
        #expect(brandenburgGate.interpolated(to: tvTower, fraction: 1) == tvTower)
    }

    @Test func destinationInvertsDistanceAndBearing() {
        let bearing = brandenburgGate.bearing(to: tvTower)
        let reached = brandenburgGate.destination(distance: brandenburgGate.distance(to: tvTower), bearing: bearing)
        #expect(reached.distance(to: tvTower) < 0.01)
    }

    @Test func localOffsetsAreInMetres() {
        let moved = brandenburgGate.offsetBy(east: 30, north: 40)
        #expect(abs(brandenburgGate.distance(to: moved) - 50) < 0.05)
    }

    @Test func validity() {
        #expect(brandenburgGate.isValid)
        #expect(!GeoCoordinate(latitude: 91, longitude: 0).isValid)
        #expect(!GeoCoordinate(latitude: .nan, longitude: 0).isValid)
    }
}
