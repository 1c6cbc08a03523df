import DeviceSimTime
import Foundation

/// A run of many (scenario file, seed) pairs: planned in a fixed order, optionally cut to one shard,
/// run on several threads, and handed back in the plan's order, so the output of `--jobs 8` is the
/// output of `--jobs 1`.
///
/// ```swift
/// let plan = ScenarioBatch.plan(found, seeds: [1, 2, 3], shard: try Shard(parsing: "1/2"))
/// ScenarioBatch.run(plan, runner: ScenarioRunner(), jobs: 4) { outcome in print(outcome.record.displayTitle) }
/// ```
public enum ScenarioBatch {
    /// One (file, seed) pair of the plan.
    public struct Item: Sendable, Hashable {
        /// Its place in the whole run (the same in every shard).
        public var position: Int
        /// The scenario file.
        public var found: ScenarioDiscovery.Found
        /// The seed to run it under (nil: the scenario's own, or the runner's override).
        public var seed: UInt64?
        /// Whether this is the file's first pair (an invalid file is reported there, once).
        public var isFirstOfFile: Bool
    }

    /// What one pair came to.
    public enum Outcome: Sendable {
        /// The scenario ran.
        case ran(RunRecord, ScenarioResult)
        /// The file is not a valid scenario (reported once, at its first pair).
        case invalid(RunRecord, ScenarioError)

        /// The pair's record.
        public var record: RunRecord {
            switch self {
            case .ran(let record, _), .invalid(let record, _): record
            }
        }
    }

    /// Every file under every seed (files in order, then seeds in order), numbered; then only the
    /// pairs of `shard`, when given.
    public static func plan(_ found: [ScenarioDiscovery.Found], seeds: [UInt64]?, shard: Shard? = nil) -> [Item] {
        let seedList: [UInt64?] = seeds.map { $0.map(Optional.some) } ?? [nil]
        var items: [Item] = []
        items.reserveCapacity(found.count * seedList.count)
        for file in found {
            for (index, seed) in seedList.enumerated() {
                items.append(Item(position: items.count, found: file, seed: seed, isFirstOfFile: index == 0))
            }
        }
        guard let shard else { return items }
        return items.filter { shard.contains($0.position) }
    }

    /// Parses each file of `items` once and runs every pair on up to `jobs` threads; `deliver` gets
    /// the outcomes on the calling thread, in the plan's order, as soon as each one and all before it
    /// are done. At most a bounded number of finished results wait to be delivered, so memory does not
    /// grow with the number of pairs. With `removingDataFolders`, the runs' databases are not kept: they
    /// stay in memory and nothing is written into the runner's data directory (scratch space).
    ///
    /// When `stop` is raised (Ctrl-C), no pair starts after that; the pairs running then finish and
    /// are delivered with those finished before them, and `run` returns. `started` is called on the
    /// worker's thread as each pair starts (for a progress line).
    public static func run(
        _ items: [Item],
        runner: ScenarioRunner,
        jobs: Int,
        swept: Bool,
        traceFolder: String? = nil,
        keepingEvents: Bool = true,
        removingDataFolders: Bool = false,
        stop: StopSignal? = nil,
        started: (@Sendable (Item) -> Void)? = nil,
        parse: @escaping @Sendable (String) throws(ScenarioError) -> Scenario = { path throws(ScenarioError) in try ScenarioParser.parse(contentsOf: path) },
        deliver: (Outcome) throws -> Void
    ) throws {
        guard !items.isEmpty else { return }
        let jobs = max(1, min(jobs, items.count))
        // Without events kept, outcomes are small: up to 128 may wait behind a slow one (a
        // week-long scenario among short ones), so the other workers keep going meanwhile.
        let state = BatchState(count: items.count, window: keepingEvents ? max(16, jobs * 4) : max(128, jobs * 16), stop: stop)
        let worlds = WorldHints()
        let parsed = ParsedFiles(parse: parse)
        let options = RunOptions(swept: swept, traceFolder: traceFolder, keepingEvents: keepingEvents, removingDataFolders: removingDataFolders)
        let work: @Sendable () -> Void = {
            DispatchQueue.concurrentPerform(iterations: jobs) { _ in
                while let index = state.claimNext(avoiding: { index in items[index].found.refusal == nil && worlds.waitsForAFileBeingRead(items[index].found.path) }) {
                    let item = items[index]
                    started?(item)
                    state.finish(index, outcome(of: item, parsed: parsed, runner: runner, options: options))
                }
            }
        }
        if jobs == 1 {
            // One job: run on this thread, delivering as we go.
            for index in items.indices {
                if stop?.isRaised == true { return }
                started?(items[index])
                if let outcome = outcome(of: items[index], parsed: parsed, runner: runner, options: options) { try deliver(outcome) }
            }
            return
        }
        Thread.detachNewThread(work)
        var failure: (any Error)?
        for index in items.indices {
            let outcome = state.take(index)
            guard failure == nil, let outcome else { continue }
            do { try deliver(outcome) } catch { failure = error; state.cancel() }
        }
        if let failure { throw failure }
    }

    /// Where a pair's trace goes in `folder`: `<relative name without .yaml>.jsonl`, with `.seed-N`
    /// before `.jsonl` in a sweep.
    public static func traceFile(in folder: String, name: String, seed: UInt64?, swept: Bool) -> String {
        var name = name
        for suffix in [".yaml", ".yml"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        if swept, let seed { name += ".seed-\(seed)" }
        return (folder.hasSuffix("/") ? String(folder.dropLast()) : folder) + "/" + name + ".jsonl"
    }

    /// Where a pair's device databases go in the run's data folder: `<relative name without .yaml>`,
    /// with `.seed-N` in a sweep (`<folder>/dog-walk/2.1-sign-in/walker.sqlite`).
    public static func dataFolder(in folder: String, name: String, seed: UInt64?, swept: Bool) -> String {
        String(traceFile(in: folder, name: name, seed: seed, swept: swept).dropLast(".jsonl".count))
    }

    /// The world file that the scenario file at `path` names on a top-level `world:` line, resolved
    /// as the parser resolves it (relative to the file's folder); nil when it names none or cannot
    /// be read. Read without parsing the file: a scheduling hint only.
    static func worldFile(namedBy path: String) -> String? {
        guard let bytes = FileBytes.contents(atPath: path), let text = String(validating: bytes, as: UTF8.self),
              var value = YAMLFileKind.topLevelValue(of: "world", in: text)?[...] else { return nil }
        if let comment = value.range(of: " #") { value = value[..<comment.lowerBound] }
        value = value.trimmingCharacters(in: .whitespaces)[...]
        if value.count >= 2, let first = value.first, first == value.last, first == "\"" || first == "'" { value = value.dropFirst().dropLast() }
        return value.isEmpty ? nil : ScenarioParser.resolvedFile(String(value), relativeTo: path).path
    }

    private struct RunOptions: Sendable {
        var swept: Bool
        var traceFolder: String?
        var keepingEvents: Bool
        var removingDataFolders: Bool
    }

    private static func outcome(of item: Item, parsed: ParsedFiles, runner: ScenarioRunner, options: RunOptions) -> Outcome? {
        let swept = options.swept
        if let refusal = item.found.refusalError {
            guard item.isFirstOfFile else { return nil }
            return .invalid(RunRecord(invalid: refusal, position: item.position, path: item.found.path, name: item.found.relativeName, swept: swept), refusal)
        }
        switch parsed.scenario(at: item.found.path) {
        case .failure(let error):
            guard item.isFirstOfFile else { return nil }
            return .invalid(RunRecord(invalid: error, position: item.position, path: item.found.path, name: item.found.relativeName, swept: swept), error)
        case .success(let scenario):
            var runner = runner
            if let seed = item.seed { runner.seedOverride = seed }
            let clock = ContinuousClock()
            let start = clock.now
            let seed = item.seed ?? runner.seedOverride ?? scenario.seed
            let tracePath = options.traceFolder.map { Self.traceFile(in: $0, name: item.found.relativeName, seed: seed, swept: swept) }
            let dataFolder = runner.dataDirectory.map { Self.dataFolder(in: $0, name: item.found.relativeName, seed: seed, swept: swept) }
            // Nothing is deleted or written through a link that leads outside the folder the user named.
            let escapes = [(options.traceFolder, tracePath, "--trace"), (runner.dataDirectory, dataFolder, "--keep-data")].compactMap { root, path, option -> String? in
                guard let root, let path else { return nil }
                let prefix = (root.hasSuffix("/") ? String(root.dropLast()) : root) + "/"
                return ContainedPath.escape(of: String(path.dropFirst(prefix.count)), under: root).map { "\(option): \($0)" }
            }
            if let escape = escapes.first {
                let error = ScenarioError(escape, at: nil)
                return .invalid(RunRecord(invalid: error, position: item.position, path: item.found.path, name: item.found.relativeName, swept: swept), error)
            }
            // Databases that are not kept stay in memory: the run gets no folder to write them into.
            let result = runner.run(scenario, traceFile: tracePath, keepingEvents: options.keepingEvents, dataFolder: options.removingDataFolders ? nil : dataFolder)
            if let inputError = result.inputError {
                // Its input cannot be played (found only while running it): an invalid file, like one that does not parse.
                let error = ScenarioError(inputError, at: nil).prefixed(item.found.path)
                return .invalid(RunRecord(invalid: error, position: item.position, path: item.found.path, name: item.found.relativeName, swept: swept), error)
            }
            let elapsed = start.duration(to: clock.now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let record = RunRecord(result, position: item.position, path: item.found.path, name: item.found.relativeName, swept: swept, wallSeconds: seconds)
            return .ran(record, result)
        }
    }
}

/// The world files that a batch's scenario files name, read from each file once, for the workers to
/// tell whether a pair would wait for a world another worker is reading. Used only under the batch
/// state's lock (from ``BatchState/claimNext(avoiding:)``).
private final class WorldHints: @unchecked Sendable {
    private var worlds: [String: String?] = [:]

    /// Whether parsing the scenario file at `path` would wait now for a world file another worker
    /// is reading (the road network read with a world can take a while). A worker runs another pair
    /// meanwhile, so that waiting leaves no core idle.
    func waitsForAFileBeingRead(_ path: String) -> Bool {
        guard ParsedFileCaches.isMakingAny else { return false }
        let world: String?
        if let known = worlds[path] {
            world = known
        } else {
            world = ScenarioBatch.worldFile(namedBy: path)
            worlds[path] = .some(world)
        }
        guard let world else { return false }
        return !ParsedFileCache.worlds.isReady(at: world)
    }
}

/// Scenario files parsed once each, shared by the batch's threads.
private final class ParsedFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String: Result<Scenario, ScenarioError>] = [:]
    private let parse: @Sendable (String) throws(ScenarioError) -> Scenario

    init(parse: @escaping @Sendable (String) throws(ScenarioError) -> Scenario) {
        self.parse = parse
    }

    func scenario(at path: String) -> Result<Scenario, ScenarioError> {
        lock.lock()
        if let known = files[path] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let result: Result<Scenario, ScenarioError>
        do { result = .success(try parse(path)) } catch { result = .failure(error) }
        lock.lock()
        defer { lock.unlock() }
        if let known = files[path] { return known }   // another thread parsed it meanwhile: keep one
        files[path] = result
        return result
    }
}

/// The batch's shared state: the next pair to claim, finished outcomes waiting for delivery, and a
/// window that keeps workers from running too far ahead of delivery.
final class BatchState: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private let window: Int
    /// Which pairs a worker has taken (they may be taken out of order, see ``claimNext(avoiding:)``).
    private var claimed: [Bool]
    /// The first pair not taken yet.
    private var firstUnclaimed = 0
    private var delivered = 0
    private var cancelled = false
    /// Raised: no pair is claimed any more; pairs not claimed by then are skipped at delivery.
    private let stop: StopSignal?
    private var finished: [Int: Outcome?] = [:]

    typealias Outcome = ScenarioBatch.Outcome

    /// How far past the first pair not taken a worker looks for one that would not wait.
    private static let lookahead = 64

    init(count: Int, window: Int, stop: StopSignal? = nil) {
        self.count = count
        self.window = window
        self.stop = stop
        claimed = [Bool](repeating: false, count: count)
    }

    /// The next pair to run: the first not taken yet, unless `wouldWait` says it would wait for
    /// something another worker is doing; then the first after it (in the window, and at most
    /// ``lookahead`` on) that would not, if there is one. Waits while too many finished pairs are
    /// undelivered; nil when done.
    func claimNext(avoiding wouldWait: (Int) -> Bool) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled && stop?.isRaised != true && firstUnclaimed < count && firstUnclaimed >= delivered + window { condition.wait() }
        guard !cancelled, stop?.isRaised != true, firstUnclaimed < count else {
            if stop?.isRaised == true { condition.broadcast() }   // the delivering thread stops waiting for pairs no one will run
            return nil
        }
        var chosen = firstUnclaimed
        if wouldWait(chosen) {
            let end = min(count, delivered + window, firstUnclaimed + 1 + Self.lookahead)
            if let other = (firstUnclaimed + 1..<end).first(where: { !claimed[$0] && !wouldWait($0) }) { chosen = other }
        }
        claimed[chosen] = true
        while firstUnclaimed < count && claimed[firstUnclaimed] { firstUnclaimed += 1 }
        return chosen
    }

    func finish(_ index: Int, _ outcome: Outcome?) {
        condition.lock()
        finished[index] = .some(outcome)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for pair `index` and removes it (nil: nothing to deliver for it, or cancelled).
    func take(_ index: Int) -> Outcome? {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled && finished[index] == nil && !(stop?.isRaised == true && !claimed[index]) {
            // Raised while waiting: look again within a tenth of a second (the signal does not wake this condition).
            if stop == nil { condition.wait() } else { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1)) }
        }
        let outcome = finished.removeValue(forKey: index) ?? nil
        delivered = index + 1
        condition.broadcast()
        return outcome
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
