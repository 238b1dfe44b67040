import PTPIPCodec

// MARK: - Pairing and the held session: what the body decides before it acknowledges an Init Command Request

extension SimulatedCamera {
    /// What the body does with an Init Command Request before admitting it.
    package enum InitCommandVerdict: Sendable, Equatable {
        /// Go on (admitted, or "busy" when another client holds the body).
        case proceed
        /// Close the connection without a word: the body still holds a dropped session.
        case closeWithoutAnswer
        /// Show "Allow pairing with the device?" and wait for the photographer (`--pairing`, a GUID not saved).
        case askToPair
        /// Init Fail reason 1: the body refuses this computer (`--fault refuse-pairing`).
        case refuse
    }

    /// The body's first answer to an Init Command Request from `guid` (reference pp. 40-41).
    package func verdict(onInitCommandFrom guid: PTPIPGUID) -> InitCommandVerdict {
        if holdsStaleSession { return .closeWithoutAnswer }
        if refusesPairing { return .refuse }
        if configuration.needsPairing, !pairedHosts.contains(guid) { return .askToPair }
        return .proceed
    }

    /// The photographer pressed OK: the body saves `guid` (the oldest of 20 goes, reference p. 40).
    package mutating func pair(_ guid: PTPIPGUID) {
        pairedHosts.removeAll { $0 == guid }
        pairedHosts.append(guid)
        if pairedHosts.count > 20 { pairedHosts.removeFirst() }
    }

    /// The body was turned off and on: a held session is gone (the saved GUIDs stay).
    package mutating func powerCycle() {
        holdsStaleSession = false
    }
}
