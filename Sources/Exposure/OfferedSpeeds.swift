/// What one planned speed is shot at on a camera: one of the speeds it offers, or BULB.
package enum SpeedChoice<Offer: Sendable>: Sendable {
    /// The offered value (the camera's own encoding when `Offer` is one), equal to the planned speed or, when
    /// substituting, the nearest.
    case offered(Offer)
    /// BULB: the shutter is held open for the planned time.
    case bulb
}

extension SpeedChoice: Equatable where Offer: Equatable {}
extension SpeedChoice: Hashable where Offer: Hashable {}

/// The timed speeds one camera offers, and whether it offers BULB: the one rule, from plan to wire, that picks
/// what a planned speed is shot at.
///
/// The plan uses it with substitution (`SpeedMatcher.match`: a speed the camera lacks becomes the nearest one
/// it has); the runner and the camera layer without (a matched speed must be there as it is, or the camera's
/// list changed): `CameraShutterSpeed.resolve` and `SonyShutterValue.matching` are adapters of this rule to
/// their own types. `Offer` is what the caller must send back: a `ShutterSpeed`, or a camera's encoding of one.
package struct OfferedSpeeds<Offer: Sendable>: Sendable {
    /// One offered timed speed and where it sits in nominal thirds.
    private struct Candidate: Sendable {
        let offer: Offer
        let speed: ShutterSpeed
        let thirds: Int
    }

    private let candidates: [Candidate]
    /// Whether the camera offers BULB.
    package let offersBulb: Bool

    /// The offers whose `speed` is a time (others, such as a BULB entry, are left out: `offersBulb` says that).
    package init(_ offers: [Offer], offersBulb: Bool, speed: (Offer) -> ShutterSpeed?) {
        candidates = offers.compactMap { offer in
            speed(offer).map { Candidate(offer: offer, speed: $0, thirds: $0.nominalThirds) }
        }
        self.offersBulb = offersBulb
    }

    /// Whether no timed speed is offered.
    package var isEmpty: Bool { candidates.isEmpty }

    /// The longest timed speed offered.
    package var longest: ShutterSpeed? { candidates.map(\.speed).max() }

    /// What `planned` is shot at, or nil when this camera cannot shoot it.
    ///
    /// 1. An offered speed equal in value (300/10 = 30/1) is used as the camera encodes it.
    /// 2. A speed longer than every timed speed is shot in BULB when the camera offers BULB.
    /// 3. With `substituting`, any other timed speed (not a bulb exposure past 30") becomes the offered speed
    ///    nearest in nominal stops (`nominalThirds`), a tie going to the longer exposure (better shadows than
    ///    clipped ones). Without, it cannot be shot.
    package func choice(for planned: ShutterSpeed, substituting: Bool) -> SpeedChoice<Offer>? {
        if let exact = candidates.first(where: { $0.speed == planned }) { return .offered(exact.offer) }
        if offersBulb, candidates.allSatisfy({ planned > $0.speed }) { return .bulb }
        guard substituting, !planned.isBulb, var best = candidates.first else { return nil }
        let target = planned.nominalThirds
        var bestDistance = abs(best.thirds - target)
        for candidate in candidates.dropFirst() {
            let distance = abs(candidate.thirds - target)
            if distance < bestDistance || (distance == bestDistance && candidate.speed > best.speed) {
                best = candidate
                bestDistance = distance
            }
        }
        return .offered(best.offer)
    }
}

extension OfferedSpeeds where Offer == ShutterSpeed {
    /// A camera's timed speeds as the planner's `ShutterSpeed`s.
    package init(_ speeds: [ShutterSpeed], offersBulb: Bool) {
        self.init(speeds, offersBulb: offersBulb, speed: { $0 })
    }
}
