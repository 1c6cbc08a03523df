extension Int64 {
    /// This instant in nanoseconds plus `duration` nanoseconds, or `Int64.max` (never) when the sum
    /// overflows: the drivers' "next check" and "until" instants past the end of time.
    ///
    /// ```swift
    /// nextFenceCheck = lastSeen.addingOrNever(fenceExitNanoseconds)
    /// ```
    @inline(__always)
    func addingOrNever(_ duration: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(duration)
        return overflow ? .max : sum
    }
}
