import Shooting

/// What a shoot asks to cross the Wi-Fi (`--transfer`).
package enum TransferChoice: String, Sendable, CaseIterable, Codable {
    /// Every file the camera sends.
    case all
    /// Only the JPEG of each shot; the RAW stays on the card.
    case jpeg
    /// Nothing: the camera keeps every image on its card.
    case none
}

/// How a body was set up for a shoot's transfer: whether images are downloaded, and what to tell the photographer
/// about what crosses the link.
package struct TransferSetup: Sendable, Hashable {
    /// Whether the runner downloads the images.
    package var downloads: Bool
    /// What is said once before the first frame; nil says nothing.
    package var note: TransferNote?

    /// A set-up.
    package init(downloads: Bool, note: TransferNote? = nil) {
        self.downloads = downloads
        self.note = note
    }
}

/// A note on what crosses the link, in types; its sentence is the layer's (`sentence`).
package enum TransferNote: Sendable, Hashable {
    /// The body saves to its card only: nothing is downloaded, and attribution cannot be verified.
    case cameraOnly
    /// `--transfer jpeg` took effect through these settings.
    case jpegOnly(settings: [String])
    /// `--transfer jpeg` on a PTP/IP body with no such setting: everything it sends is downloaded.
    case noJPEGOnlySetting
    /// A Camera Remote API body sends each picture's JPEG (`reduced`: its postview size is not the original).
    case remoteAPIJPEG(reduced: Bool)
    /// `--transfer none` on a Camera Remote API body.
    case nothingDownloaded

    /// The sentence a person reads (a whole sentence, with its stop).
    package var sentence: String {
        switch self {
        case .cameraOnly:
            "The camera saves to its card only (Still Img. Save Dest.: Camera Only): nothing is downloaded, and a "
                + "frame counts as shot when the camera confirms its release; which file is which frame cannot be "
                + "verified."
        case .jpegOnly(let settings):
            "Only the JPEGs cross the Wi-Fi (\(settings.joined(separator: ", "))); the RAW files stay on the card."
        case .noJPEGOnlySetting:
            "The camera has no setting to send only its JPEGs; every file it sends is downloaded."
        case .remoteAPIJPEG(let reduced):
            "The Camera Remote API sends each picture's JPEG"
                + (reduced ? " (a reduced one: the camera kept its postview size)" : "")
                + "; RAW files stay on the card."
        case .nothingDownloaded:
            "Nothing is downloaded (--transfer none): a frame counts as shot when the camera answers its release; "
                + "which file is which frame cannot be verified."
        }
    }
}

/// What stops a shoot's preparation that is the layer's own: neither the camera's nor the journal's errors.
package enum ShootPreparationError: Error, Sendable, Equatable {
    /// `--transfer none` on a body that sends its images to the computer (0xD222 is get-only).
    case transferNeedsCameraOnly
    /// The camera is reachable but cannot shoot the plan now.
    case blocked([ShootBlocker])
    /// The proposal was declined: nothing was shot.
    case declined
    /// The state folder cannot take a new shoot's journal (full, unwritable): nothing was shot or recorded.
    case cannotRecord(stateDirectory: String, cause: JournalError)
}
