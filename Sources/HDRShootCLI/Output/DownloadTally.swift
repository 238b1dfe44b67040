/// The files downloaded so far in a shoot: how many, how many bytes, and since when, for the transfer rate and
/// the time the rest will take.
struct DownloadTally: Sendable {
    /// Files downloaded.
    private(set) var files = 0
    /// Their bytes.
    private(set) var bytes = 0
    /// When the first arrived.
    private(set) var since: ContinuousClock.Instant?

    /// A file of `bytes` arrived at `now`.
    mutating func add(bytes: Int, at now: ContinuousClock.Instant) {
        if since == nil { since = now }
        files += 1
        self.bytes += bytes
    }

    /// The bytes per second measured so far; nil until two files arrived a measurable time apart.
    func rate(now: ContinuousClock.Instant) -> Double? {
        guard files >= 2, let since else { return nil }
        let seconds = ShootText.seconds(now - since)
        return seconds > 0.05 ? Double(bytes) / seconds : nil
    }

    /// ` (230 MB, ~3 min)`: what `frames` more frames weigh and take at the size and rate measured so far; empty
    /// before anything was measured.
    func estimate(frames: Int, now: ContinuousClock.Instant) -> String {
        guard files > 0 else { return "" }
        let total = Double(bytes) / Double(files) * Double(frames)
        let megabytes = "\(Int((total / 1_000_000).rounded(.up))) MB"
        guard let rate = rate(now: now), rate > 0 else { return " (\(megabytes))" }
        return " (\(megabytes), ~\(ShootText.duration(.seconds(total / rate))))"
    }
}
