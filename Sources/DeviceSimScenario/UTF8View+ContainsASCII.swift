extension String.UTF8View {
    /// Whether the ASCII text `needle` occurs in these bytes: a plain byte search, with none of
    /// Foundation's Unicode comparison (a 28 MB scenario file costs milliseconds, not half a second).
    ///
    /// ```swift
    /// "at: 08:00 local".utf8.containsASCII(" local")   // true
    /// ```
    func containsASCII(_ needle: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = pattern.first else { return true }
        let search = { (bytes: UnsafeBufferPointer<UInt8>) -> Bool in
            guard bytes.count >= pattern.count else { return false }
            var index = 0
            let last = bytes.count - pattern.count
            while index <= last {
                if bytes[index] == first {
                    var matched = 1
                    while matched < pattern.count, bytes[index + matched] == pattern[matched] { matched += 1 }
                    if matched == pattern.count { return true }
                }
                index += 1
            }
            return false
        }
        if let found = withContiguousStorageIfAvailable(search) { return found }
        return Array(self).withUnsafeBufferPointer(search)
    }
}
