import CameraSimulator
import Exposure
import Foundation
import ImageMetadata
import PTPIP
import Shooting
import SonyCamera
import TestSupport
import Testing

/// What a killed process leaves in a set folder, read back on resume (issue 37, bugs b and c): whole images are
/// returned for adoption by their EXIF, partial files are deleted, what cannot be judged is left alone.
@Suite struct SonyCameraLeftBehindTests {
    /// A whole JPEG as the simulated body writes it, recording `speed` in its EXIF.
    static func jpeg(_ speed: ShutterSpeed, size: Int = 6_000) -> [UInt8] {
        let exif = ExifFields(
            exposureTime: ExifRational(numerator: UInt32(speed.numerator), denominator: UInt32(speed.denominator)),
            dateTimeOriginal: "2026:11:26 17:00:00", make: "SONY", model: "ILCE-7M3")
        return GeneratedImage(size: size, fileName: "DSC.JPG", comment: "left behind", exif: exif).allBytes
    }

    @Test func wholeImagesAreReturnedByTheirExifAndPartialFilesAreDeleted() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-left").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let write = { (name: String, bytes: [UInt8]) in
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        let known = folder.appendingPathComponent("DSC00004_1-500s.JPG").path
        try write("DSC00004_1-500s.JPG", Self.jpeg(ShutterSpeed(numerator: 1, denominator: 500)))
        // Written whole, never recorded: the kill fell between the file's fsync and the journal's.
        try write("DSC00005_1-250s.JPG", Self.jpeg(ShutterSpeed(numerator: 1, denominator: 250)))
        // Cut short by the kill (no EOI), marked by the downloader, created and killed before any byte.
        try write("DSC00006_1-125s.JPG", Array(Self.jpeg(ShutterSpeed(numerator: 1, denominator: 125)).prefix(4_000)))
        try write(
            "DSC00007_1-60s-partial.JPG", Array(Self.jpeg(ShutterSpeed(numerator: 1, denominator: 60)).prefix(3_000)))
        try write("DSC00008.JPG", [])
        // A RAW's bytes do not say whether it is whole: left where it is.
        try write("DSC00009.ARW", [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0] + [UInt8](repeating: 0, count: 100))
        let camera = SonyCamera(
            configuration: SimulatorHarness.camera(port: 1), clock: TestClock())
        let found = try await camera.filesLeftBehind(in: CaptureDestination(directory: folder), known: [known])
        #expect(found.map(\.fileName) == ["DSC00005_1-250s.JPG"])
        #expect(found.first?.exposure == ShutterSpeed(numerator: 1, denominator: 250))
        #expect(found.first?.byteCount == 6_000)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["DSC00004_1-500s.JPG", "DSC00005_1-250s.JPG", "DSC00009.ARW"])
    }

    @Test func aFolderThatDoesNotExistLeavesNothing() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-left").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let camera = SonyCamera(configuration: SimulatorHarness.camera(port: 1), clock: TestClock())
        let found = try await camera.filesLeftBehind(
            in: CaptureDestination(directory: folder.appendingPathComponent("set-02")), known: [])
        #expect(found.isEmpty)
    }
}
