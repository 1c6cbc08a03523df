import DeviceSim
import DeviceSimScenario
import Testing

/// Steps and expectations of a scenario with many devices: each names its device by id, found in the
/// index of the devices (``ScenarioDeviceIndex``), with the same results and the same refusals as a
/// scenario of one device.
@Suite struct ManyDevicesParsingTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    /// 3,000 dog walkers (`walker-1` ... `walker-3000`) and the expectations `expect`.
    func fleet(expecting expect: String, timeline: String = "") -> String {
        """
        name: many walkers
        devices:
          - { id: walker, count: 3000, at: [52.51, 13.32], app: { name: dog-walk } }
          - { id: loner, at: [52.51, 13.32] }
        duration: 1m
        \(timeline)
        expect:
        \(expect)
        """
    }

    func error(in text: String) -> ScenarioError? {
        do {
            _ = try ScenarioParser.parse(text, file: "fleet.yaml")
            return nil
        } catch {
            return error
        }
    }

    @Test func stepsAndExpectationsFindTheirDeviceAmongThousands() throws {
        let scenario = try ScenarioParser.parse(fleet(
            expecting: """
                  - { event: app.started, device: walker-3000, at-least: 1 }
                  - { order: [app.started, step], device: walker-1 }
                  - { position: location, device: walker-1500, at: 30s, near: [52.51, 13.32], radius: 50 }
                  - { stored: "\\u00A0SELECT 1", device: walker-2, at: 30s, rows: [[1]] }
                """,
            timeline: """
                timeline:
                  - { at: 10s, device: walker-2999, do: gps-off }
                """), file: "fleet.yaml")
        #expect(scenario.devices.count == 3001)
        #expect(scenario.timeline.map(\.device) == ["walker-2999"])
        guard scenario.expectations.count == 4,
              case .event(let started) = scenario.expectations[0], case .order(let order) = scenario.expectations[1],
              case .position(let position) = scenario.expectations[2], case .event(let stored) = scenario.expectations[3]
        else {
            Issue.record("expected an event, an order, a position and a stored: check, found \(scenario.expectations)")
            return
        }
        #expect(started.device == "walker-3000")
        #expect(order.device == "walker-1")
        #expect(position.device == "walker-1500")
        // A query that starts with a no-break space (a space to SQL's reader too) is a SELECT.
        #expect(stored.device == "walker-2")
        #expect(scenario.probes.map(\.at) == [.seconds(30)])
    }

    @Test func aDeviceNoOneHasIsRefusedWithTheNearestID() {
        let unknown = error(in: fleet(expecting: "  - { event: app.started, device: walker-30000 }"))
        #expect(unknown?.message == "unknown device 'walker-30000'; did you mean 'walker-3000'?")
        #expect(unknown?.location?.line == 8)
        let unknownInStep = error(in: fleet(expecting: "  - { event: app.started }", timeline: "timeline:\n  - { at: 1s, device: walkr-7, do: gps-off }"))
        #expect(unknownInStep?.message == "unknown device 'walkr-7'; did you mean 'walker-7'?")
    }

    @Test func anAppsEventOnADeviceWithoutTheAppIsRefused() {
        let refused = error(in: fleet(expecting: "  - { event: app.started, device: loner }"))
        #expect(refused?.message == "'app.started' is recorded by the dog-walk app, and the device 'loner' runs no app")
        let misspelt = error(in: fleet(expecting: "  - { event: app.strated, device: walker-9 }"))
        #expect(misspelt?.message.hasPrefix("unknown event 'app.strated'; did you mean 'app.started'?") == true, "\(misspelt?.message ?? "accepted")")
    }

    @Test func aStoredQueryMustStartWithSelectWhateverItsSpaces() {
        #expect(error(in: fleet(expecting: "  - { stored: \"\\n\\t select 1\", device: walker-1, at: 30s, rows: [[1]] }")) == nil)
        #expect(error(in: fleet(expecting: "  - { stored: \"DELETE FROM walks\", device: walker-1, at: 30s, rows: [] }"))?.message
            == "a stored expectation reads with a SELECT query; found 'DELETE FROM walks'")
        // A letter beyond ASCII ends no word: `SELECTé` is not SELECT.
        #expect(error(in: fleet(expecting: "  - { stored: \"SELECTé 1\", device: walker-1, at: 30s, rows: [] }"))?.message
            == "a stored expectation reads with a SELECT query; found 'SELECTé 1'")
    }

    @Test func durationsReadTheSameInEveryUnitSpelling() {
        #expect(DurationText.parse("1H30M") == nil)
        #expect(DurationText.parse("1.5h") == .seconds(5_400))
        #expect(DurationText.parse("30 s 250 ms") == .milliseconds(30_250))
        #expect(DurationText.parse("1h30m\r\n") == nil)
        #expect(DurationText.parse("1h\u{00A0}30m") == nil)
        #expect(DurationText.parse("\u{00A0}90s") == .seconds(90))
        #expect(DurationText.parse("90s.") == nil)
    }
}
