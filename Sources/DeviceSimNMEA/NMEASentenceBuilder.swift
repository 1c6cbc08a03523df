/// The ``NMEASentenceSink`` that makes an ``NMEASentence`` of what the parser read. Its lists (GSA's
/// used satellites, GSV's satellites) are reused for the next sentence when nothing else kept the
/// last one (copy on write), so decoding allocates nothing per sentence.
///
/// ```swift
/// var builder = NMEASentenceBuilder()
/// builder.add(gga) { _ in }
/// builder.take()   // .gga(gga)
/// ```
struct NMEASentenceBuilder: NMEASentenceSink {
    private var sentence: NMEASentence?
    private var satellitesUsed: [Int] = []
    private var satellites: [NMEASatellite] = []
    private var gsv: NMEASentence.GSV?

    /// The sentence made last, if any; the builder forgets it.
    mutating func take() -> NMEASentence? {
        defer { sentence = nil }
        return sentence
    }

    mutating func add(_ gga: NMEASentence.GGA, emit: (NMEAFixAssembler.Report) -> Void) { sentence = .gga(gga) }
    mutating func add(_ rmc: NMEASentence.RMC, emit: (NMEAFixAssembler.Report) -> Void) { sentence = .rmc(rmc) }
    mutating func add(_ gll: NMEASentence.GLL, emit: (NMEAFixAssembler.Report) -> Void) { sentence = .gll(gll) }
    mutating func add(_ vtg: NMEASentence.VTG, emit: (NMEAFixAssembler.Report) -> Void) { sentence = .vtg(vtg) }
    mutating func add(_ zda: NMEASentence.ZDA, emit: (NMEAFixAssembler.Report) -> Void) { sentence = .zda(zda) }
    mutating func add(_ gst: NMEASentence.GST, emit: (NMEAFixAssembler.Report) -> Void) { sentence = .gst(gst) }

    mutating func beginGSA() {
        satellitesUsed.removeAll(keepingCapacity: true)
    }

    mutating func addUsedSatellite(_ prn: Int) {
        satellitesUsed.append(prn)
    }

    mutating func endGSA(_ gsa: NMEASentence.GSA, emit: (NMEAFixAssembler.Report) -> Void) {
        var gsa = gsa
        gsa.satellitesUsed = satellitesUsed
        sentence = .gsa(gsa)
    }

    mutating func beginGSV(_ gsv: NMEASentence.GSV) {
        self.gsv = gsv
        satellites.removeAll(keepingCapacity: true)
    }

    mutating func addSatellite(_ satellite: NMEASatellite) {
        satellites.append(satellite)
    }

    mutating func endGSV(emit: (NMEAFixAssembler.Report) -> Void) {
        guard var gsv else { return }
        self.gsv = nil
        gsv.satellites = satellites
        sentence = .gsv(gsv)
    }
}
