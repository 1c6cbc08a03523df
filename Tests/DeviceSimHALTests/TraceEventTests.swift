import DeviceSimHAL
import DeviceSimTime
import Testing

@Suite struct TraceEventTests {
    @Test func jsonLineKeepsFieldOrderAndFormatsNumbersStably() {
        let event = TraceEvent(
            time: VirtualInstant(offset: .milliseconds(12_500)), device: "alice", name: "marker.moved",
            fields: [("lat", .double(52.123456789)), ("lon", .double(-0.5)), ("n", .int(3)), ("ok", .bool(true)), ("why", .null)])
        #expect(event.jsonLine == #"{"t":12.500,"device":"alice","event":"marker.moved","lat":52.1234568,"lon":-0.5,"n":3,"ok":true,"why":null}"#)
    }

    @Test func stringsAreEscaped() {
        let event = TraceEvent(time: .zero, device: nil, name: "note", fields: [("text", .string("a \"quote\"\n\u{1}"))])
        #expect(event.jsonLine == #"{"t":0.000,"event":"note","text":"a \"quote\"\n\u0001"}"#)
    }

    @Test func coordinateComesFromLatAndLon() {
        let event = TraceEvent(time: .zero, device: "d", name: "x", fields: [("lat", .double(1)), ("lon", .int(2))])
        #expect(event.coordinate == GeoCoordinate(latitude: 1, longitude: 2))
        #expect(TraceEvent(time: .zero, device: "d", name: "x").coordinate == nil)
    }

    @Test func wholeDoublesPrintWithoutAFraction() {
        #expect(TraceValue.double(3).description == "3")
        #expect(TraceValue.double(.infinity).description == "null")
    }

    @Test func wifiSignalLevelsFollowAndroid() {
        #expect(WiFiScanResult(ssid: "a", bssid: "b", rssi: -100).signalLevel == 0)
        #expect(WiFiScanResult(ssid: "a", bssid: "b", rssi: -55).signalLevel == 4)
        #expect(WiFiScanResult(ssid: "a", bssid: "b", rssi: -70).signalLevel == 2)
    }
}

@Suite struct TraceJSONWritingTests {
    @Test func textOutsideASCIIPassesThroughAndEveryControlByteIsEscaped() {
        let event = TraceEvent(time: VirtualInstant(offset: .milliseconds(-1_500)), device: "Zoë", name: "note", fields: [
            ("text", .string("Café ☕ \u{1F}\t\\")), ("big", .int(-9_223_372_036_854_775_808)), ("n", .int(1_234_567_890)),
        ])
        #expect(event.jsonLine == #"{"t":-1.500,"device":"Zoë","event":"note","text":"Café ☕ \u001f\t\\","big":-9223372036854775808,"n":1234567890}"#)
        #expect(TraceEvent.jsonLines([event, event]) == event.jsonLine + "\n" + event.jsonLine + "\n")
        #expect(JSONString.quote("a\"b") == #""a\"b""#)
    }
}

/// Whether a recorder's events would be kept or looked at, asked before making an event's text.
@Suite struct EventSinkRecordsTests {
    final class NamedSink: EventSink {
        let names: Set<String>
        init(_ names: Set<String>) { self.names = names }
        func record(_ event: TraceEvent) {}
        func records(eventsNamed name: String) -> Bool { names.contains(name) }
    }

    final class PlainSink: EventSink {
        func record(_ event: TraceEvent) {}
    }

    @Test func aRecorderRecordsANameWhenItKeepsEventsOrASinkItForwardsToDoes() {
        #expect(TraceRecorder().records(eventsNamed: "wifi.scan"))
        let streaming = TraceRecorder(keepsEvents: false)
        #expect(!streaming.records(eventsNamed: "wifi.scan"), "nothing kept, nowhere to go")
        streaming.forward(to: NamedSink(["hotspot.entered"]))
        #expect(!streaming.records(eventsNamed: "wifi.scan"))
        #expect(streaming.records(eventsNamed: "hotspot.entered"))
        streaming.forward(to: PlainSink())
        #expect(streaming.records(eventsNamed: "wifi.scan"), "a sink that does not say records everything")
    }
}
