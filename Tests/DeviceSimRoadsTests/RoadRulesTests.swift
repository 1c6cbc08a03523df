import DeviceSimRoads
import Testing

@Suite struct RoadRulesTests {
    @Test func classDefaultsAndMaxspeed() {
        #expect(RoadRules.speed(of: .car, tags: ["highway": "residential"]) == 30)
        #expect(RoadRules.speed(of: .car, tags: ["highway": "residential", "maxspeed": "40"]) == 40)
        #expect(RoadRules.speed(of: .car, tags: ["highway": "primary", "maxspeed": "FI:urban"]) == 50)
        #expect(abs(RoadRules.speed(of: .car, tags: ["highway": "primary", "maxspeed": "30 mph"])! - 48.28032) < 1e-9)
        #expect(RoadRules.speed(of: .bike, tags: ["highway": "primary", "maxspeed": "10"]) == 10)
        #expect(RoadRules.speed(of: .foot, tags: ["highway": "primary", "maxspeed": "80"]) == 5)
        #expect(RoadRules.speed(of: .car, tags: ["highway": "footway"]) == nil)
        #expect(RoadRules.speed(of: .bike, tags: ["highway": "footway"]) == nil)
        #expect(RoadRules.speed(of: .bike, tags: ["highway": "footway", "bicycle": "designated"]) == 5)
        #expect(RoadRules.speed(of: .foot, tags: ["highway": "motorway"]) == nil)
        #expect(RoadRules.speed(of: .foot, tags: ["highway": "steps"]) == 2.5)
        #expect(RoadRules.speed(of: .car, tags: ["highway": "construction"]) == nil)
        #expect(RoadRules.speed(of: .foot, tags: ["highway": "pedestrian", "area": "yes"]) == nil)
        #expect(RoadRules.parseMaxspeed("none") == nil)
    }

    @Test func accessTagsMostSpecificFirst() {
        #expect(RoadRules.speed(of: .car, tags: ["highway": "service", "access": "private"]) == nil)
        #expect(RoadRules.speed(of: .car, tags: ["highway": "service", "access": "no", "motor_vehicle": "yes"]) == 20)
        #expect(RoadRules.speed(of: .car, tags: ["highway": "residential", "motor_vehicle": "no"]) == nil)
        #expect(RoadRules.speed(of: .foot, tags: ["highway": "residential", "motor_vehicle": "no"]) == 5)
        #expect(RoadRules.speed(of: .bike, tags: ["highway": "residential", "access": "no", "bicycle": "yes"]) == 18)
        #expect(RoadRules.speed(of: .foot, tags: ["highway": "cycleway", "foot": "no"]) == nil)
    }

    @Test func oneWayForCarsAndBikesNotForFeet() {
        let oneway = ["highway": "residential", "oneway": "yes"]
        #expect(RoadRules.directions(of: .car, tags: oneway) == .init(forward: true, backward: false))
        #expect(RoadRules.directions(of: .bike, tags: oneway) == .init(forward: true, backward: false))
        #expect(RoadRules.directions(of: .foot, tags: oneway) == .init(forward: true, backward: true))
        #expect(RoadRules.directions(of: .bike, tags: oneway.merging(["oneway:bicycle": "no"]) { $1 }) == .init(forward: true, backward: true))
        #expect(RoadRules.directions(of: .car, tags: ["highway": "primary", "oneway": "-1"]) == .init(forward: false, backward: true))
        #expect(RoadRules.directions(of: .car, tags: ["highway": "primary", "junction": "roundabout"]) == .init(forward: true, backward: false))
        #expect(RoadRules.directions(of: .car, tags: ["highway": "motorway", "oneway": "no"]) == .init(forward: true, backward: true))
    }
}
