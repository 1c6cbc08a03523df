import DeviceSimDogWalk
import DeviceSimHAL
import DeviceSimTime
import Testing

@Suite struct BusinessRecordMapTests {
    let spot = GeoCoordinate(latitude: 52.52, longitude: 13.405)

    func record(_ id: Int64, _ kind: BusinessRecord.Kind, metresEast: Double, minute: Int64) -> BusinessRecord {
        BusinessRecord(id: id, dogID: 1, kind: kind, coordinate: spot.destination(distance: metresEast, bearing: 90),
                       placedAt: VirtualInstant(offset: .seconds(minute * 60)), localTime: "")
    }

    @Test func overlappingRecordsShowAsTheLatestOneAndFarOnesApart() {
        let records = [record(1, .pee, metresEast: 0, minute: 1), record(2, .poo, metresEast: 2, minute: 5), record(3, .pee, metresEast: 4, minute: 3),
                       record(4, .poo, metresEast: 40, minute: 2)]
        let markers = BusinessRecordMap.markers(of: records, overlapDistance: 5)
        #expect(markers.map(\.shown.id) == [2, 4])
        #expect(markers.map { $0.members.map(\.id) } == [[2, 3, 1], [4]])
        // A smaller overlap distance splits the group (record 1 is 4 m from record 3, 2 m from record 2).
        #expect(BusinessRecordMap.markers(of: records, overlapDistance: 1).count == 4)
    }

    @Test func statisticsCountTheOverlappingRecordsInWholePercentThatAddUpTo100() {
        let records = [record(1, .pee, metresEast: 0, minute: 1), record(2, .pee, metresEast: 1, minute: 2), record(3, .poo, metresEast: 2, minute: 3),
                       record(4, .poo, metresEast: 50, minute: 4)]
        let overlapping = BusinessRecordMap.overlapping(records[2], in: records, overlapDistance: 5)
        #expect(overlapping.map(\.id) == [3, 2, 1])
        let statistics = BusinessRecordMap.Statistics(overlapping)
        #expect((statistics.pees, statistics.poos, statistics.peePercent, statistics.pooPercent) == (2, 1, 67, 33))
        for pees in 0...7 {
            for poos in 0...7 where pees + poos > 0 {
                let counted = BusinessRecordMap.Statistics((0..<(pees + poos)).map { record(Int64($0), $0 < pees ? .pee : .poo, metresEast: 0, minute: 0) })
                #expect(counted.peePercent + counted.pooPercent == 100)
                #expect(abs(Double(counted.peePercent) - Double(pees) * 100 / Double(pees + poos)) <= 0.5)
            }
        }
        #expect(BusinessRecordMap.Statistics([]).peePercent == 0)
    }

    @Test func aChainOfOverlappingRecordsIsOneMarkerWhoseGroupIsWhatThePopupCounts() {
        // 3.3 m apart in a line: the ends are 6.6 m apart, more than the overlap distance.
        let records = [record(1, .pee, metresEast: 0, minute: 1), record(2, .pee, metresEast: 3.3, minute: 2), record(3, .poo, metresEast: 6.6, minute: 3)]
        for order in [records, records.reversed(), [records[1], records[0], records[2]]] {
            let markers = BusinessRecordMap.markers(of: order, overlapDistance: 5)
            #expect(markers.map(\.shown.id) == [3])
            #expect(markers.map { $0.members.map(\.id) } == [[3, 2, 1]])
            for selected in records {
                #expect(BusinessRecordMap.overlapping(selected, in: order, overlapDistance: 5).map(\.id) == [3, 2, 1])
            }
        }
        // A record 4 m past the end joins the chain; one 6 m past it does not.
        #expect(BusinessRecordMap.markers(of: records + [record(4, .pee, metresEast: 10.6, minute: 0)], overlapDistance: 5).count == 1)
        #expect(BusinessRecordMap.markers(of: records + [record(4, .pee, metresEast: 12.6, minute: 0)], overlapDistance: 5).map(\.members.count) == [3, 1])
    }
}
