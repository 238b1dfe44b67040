/// The data-phase field of an Operation Request (CIPA DC-005 §2.3.6): which way data will flow.
package enum DataPhaseInfo: UInt32, Sendable, CaseIterable, CustomStringConvertible {
    /// 1: no data phase, or a data-in phase (device to host).
    case noDataOrDataIn = 1
    /// 2: a data-out phase (host to device).
    case dataOut = 2
    /// 3: the initiator does not know (allowed by the standard; rare).
    case unknown = 3

    /// A readable name with the wire value.
    package var description: String {
        switch self {
        case .noDataOrDataIn: return "no data or data-in (1)"
        case .dataOut: return "data-out (2)"
        case .unknown: return "unknown data phase (3)"
        }
    }
}

/// The reason an Init Fail packet gives (CIPA DC-005 §2.3.5); other values round-trip unnamed.
package struct InitFailReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The reason as it travels on the wire.
    package let rawValue: UInt32

    /// Wraps a raw reason.
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// 1: the responder refuses this initiator (for Sony: the host was not accepted on the camera).
    package static let rejectedInitiator = InitFailReason(rawValue: 1)
    /// 2: the responder is busy with another initiator.
    package static let busy = InitFailReason(rawValue: 2)
    /// 3: unspecified.
    package static let unspecified = InitFailReason(rawValue: 3)

    /// A readable name with the wire value.
    package var description: String {
        switch rawValue {
        case 1: return "rejected initiator (1)"
        case 2: return "busy (2)"
        case 3: return "unspecified (3)"
        default: return "reason \(hex32(rawValue))"
        }
    }

    /// Whether trying again later may succeed (only "busy").
    package var isTransient: Bool { self == .busy }
}

/// A 16-byte PTP/IP GUID identifying an initiator or responder (CIPA DC-005 §2.3.1).
package struct PTPIPGUID: Hashable, Sendable, CustomStringConvertible {
    /// The 16 bytes in wire order.
    package let bytes: [UInt8]

    /// Wraps 16 bytes; nil for any other count.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The all-zero GUID.
    package static let zero = PTPIPGUID(uncheckedBytes: [UInt8](repeating: 0, count: 16))

    private init(uncheckedBytes: [UInt8]) { self.bytes = uncheckedBytes }

    /// The bytes as 32 lower-case hex digits, in wire order.
    package var description: String {
        bytes.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}
