import Exposure
import Foundation
import Shooting

/// A fixed instant (whole seconds: the journal stores ISO 8601 without fractions).
let journalEpoch = Date(timeIntervalSince1970: 1_763_800_000)

/// A journal of a 3 x 5 plan on a made-up RX100M7.
func sampleJournal(id: String = "20251122-083320-00aa") -> ShootJournal {
    ShootJournal(
        id: id,
        plan: plan(sets: 3, frames: 5),
        camera: CameraIdentity(
            model: "DSC-RX100M7", serialNumber: "3d4f00112233", address: "192.168.122.1:15740",
            ssid: "DIRECT-xyz:DSC-RX100M7"),
        substitutions: [.init(planned: speed(6400), used: speed(5000))],
        outputDirectory: "/photos/hdrshoot-20251122-083320",
        createdAt: journalEpoch
    )
}

/// The file's permission bits.
func permissions(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}
