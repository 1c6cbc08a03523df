/// Where ``NMEASentenceParser`` puts a sentence's values as it reads them: into an ``NMEASentence``
/// (``NMEASentenceBuilder``), or straight into an ``NMEAFixAssembler``'s epoch, with no sentence
/// built and copied in between (the decoder's fast path).
///
/// GSA and GSV sentences come in parts, in the order their fields are read: the satellites one at a
/// time between a `begin` and an `end`.
///
/// ```swift
/// var assembler = NMEAFixAssembler()
/// parser.parse(body, into: &assembler) { report in ... }
/// ```
protocol NMEASentenceSink {
    mutating func add(_ gga: NMEASentence.GGA, emit: (NMEAFixAssembler.Report) -> Void)
    mutating func add(_ rmc: NMEASentence.RMC, emit: (NMEAFixAssembler.Report) -> Void)
    mutating func add(_ gll: NMEASentence.GLL, emit: (NMEAFixAssembler.Report) -> Void)
    mutating func add(_ vtg: NMEASentence.VTG, emit: (NMEAFixAssembler.Report) -> Void)
    mutating func add(_ zda: NMEASentence.ZDA, emit: (NMEAFixAssembler.Report) -> Void)
    mutating func add(_ gst: NMEASentence.GST, emit: (NMEAFixAssembler.Report) -> Void)

    /// A GSA sentence starts; its used satellites follow, then ``endGSA(_:emit:)``.
    mutating func beginGSA()
    /// One satellite a GSA sentence lists as used, in the sentence's order.
    mutating func addUsedSatellite(_ prn: Int)
    /// The GSA sentence's other fields (its `satellitesUsed` is ignored: the satellites came one by one).
    mutating func endGSA(_ gsa: NMEASentence.GSA, emit: (NMEAFixAssembler.Report) -> Void)

    /// A GSV sentence starts (its `satellites` is empty); its satellites follow, then ``endGSV(emit:)``.
    mutating func beginGSV(_ gsv: NMEASentence.GSV)
    /// One satellite of a GSV sentence, in the sentence's order.
    mutating func addSatellite(_ satellite: NMEASatellite)
    /// The GSV sentence begun last has no more satellites.
    mutating func endGSV(emit: (NMEAFixAssembler.Report) -> Void)
}
