import SonyProtocol

// MARK: - What one connection holds: the PTP session, the buttons, the idle timer

extension SimulatedCamera {
    /// What belongs to one connection, from the admitted Init Command Request until the link closes: the next
    /// connection starts from a fresh value, so nothing of it is reset by hand.
    struct Connection: Sendable, Equatable {
        /// The open PTP session; nil before OpenSession and after CloseSession.
        var session: OpenSession?
        /// The property layout agreed in SDIO_GetExtDeviceInfo (the body's own until then).
        var negotiatedVersion: SonyProtocolVersion
        /// S1 and S2 as the host holds them.
        var button: ShutterButton = .up
        /// The `idle-drop` timer.
        var idle: IdleTimer = .off
        /// Whether a `hang` fault struck: every request is read and none answered until the link closes.
        var hanging = false
    }

    /// One PTP session (OpenSession to CloseSession, PTP 1.0 §10.5.2-3) and what the body counts in it.
    struct OpenSession: Sendable, Equatable {
        /// The session id the host chose.
        var id: UInt32
        /// When OpenSession succeeded (`startup-nofire` counts from here).
        var openedAt: Duration
        /// The highest SDIO_Connect phase completed (0 before the first).
        var connectPhase: UInt32 = 0
        /// DeviceBusy answers left for SDIO_Connect / 0x9209 (`busy-at-start`).
        var busyAtStartLeft: Int
    }

    /// The shutter button as the host holds it with SDIO_ControlDevice: S1 (0xD2C1, half press) and S2
    /// (0xD2C2, full press), reference p. 114. S2 may go down without S1.
    package enum ShutterButton: Sendable, Equatable {
        /// Neither is held.
        case up
        /// S1 is held, with what its autofocus does.
        case halfPressed(Focus)
        /// S2 is held; `halfPressed` is S1's autofocus when S1 is held too, nil when it is not.
        case fullyPressed(halfPressed: Focus?)

        /// The button with S1 held (with `halfPress`'s autofocus) or not (nil), and S2 held or not.
        init(halfPress: Focus?, fullPress: Bool) {
            if fullPress {
                self = .fullyPressed(halfPressed: halfPress)
            } else {
                self = halfPress.map(Self.halfPressed) ?? .up
            }
        }

        /// S1's autofocus while S1 is held; nil while it is up.
        package internal(set) var halfPress: Focus? {
            get {
                switch self {
                case .up: nil
                case let .halfPressed(focus): focus
                case let .fullyPressed(halfPressed): halfPressed
                }
            }
            set { self = ShutterButton(halfPress: newValue, fullPress: fullPress) }
        }

        /// Whether S2 is held.
        package internal(set) var fullPress: Bool {
            get {
                if case .fullyPressed = self { return true }
                return false
            }
            set { self = ShutterButton(halfPress: halfPress, fullPress: newValue) }
        }
    }

    /// What S1 started (Focus Indication 0xD213 shows it, reference p. 447).
    package enum Focus: Sendable, Equatable {
        /// No autofocus: MF, or AF with shutter off, when S1 went down.
        case off
        /// Autofocus runs until `settlesAt` (`af-lock`).
        case focusing(settlesAt: Duration)
        /// Autofocus has settled: focused, or not with `af-fail`.
        case settled
    }

    /// The `idle-drop` timer of a connection.
    enum IdleTimer: Sendable, Equatable {
        /// No `idle-drop` quirk.
        case off
        /// The link drops at `dropsAt` unless a request comes first.
        case running(dropsAt: Duration)
        /// The time ran out: the server closes the link (`takeLinkDrop()`).
        case expired
    }
}
