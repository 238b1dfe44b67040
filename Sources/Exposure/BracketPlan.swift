/// A bracket plan: the sets to shoot, in order, each an ordered list of exposures.
package struct BracketPlan: Sendable, Hashable, Codable {
    /// The bracket sets in shooting order; each set lists its frames in shooting order.
    package var sets: [[ShutterSpeed]]
    /// Things the photographer should know about this plan (shortened sets, clamped speeds, ...).
    package var warnings: [String]

    /// Creates a plan from its sets and warnings.
    package init(sets: [[ShutterSpeed]], warnings: [String] = []) {
        self.sets = sets
        self.warnings = warnings
    }

    /// The number of exposures in the whole plan.
    package var totalExposures: Int { sets.reduce(0) { $0 + $1.count } }
}
