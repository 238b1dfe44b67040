import CameraSimulator
import ImageMetadata
import PTPIPCodec
import SonyProtocol
import Testing

/// What a capture leaves for the host: RAW+JPEG pairs, ARW files, 0xD215 counting files or captures, the save
/// destination (0xD222) and the transfer settings 0xD268 / 0xD269, in virtual time.
@Suite("Simulated camera: file formats, save destination and transfer settings")
struct SimulatorFileFormatTests {
    /// Fires one 1/125 frame and lets it process (zero processing time).
    static func shoot(_ driver: inout CameraDriver) {
        _ = driver.release()
        driver.wait(.milliseconds(8))
    }

    /// GetObjectInfo, then GetObject, of 0xFFFFC001.
    static func fetch(_ driver: inout CameraDriver) throws -> (info: ObjectInfo, bytes: [UInt8]) {
        let info = try ObjectInfo(
            decoding: driver.send(.getObjectInfo, [SonyObjectHandle.stillImage]).data?.allBytes ?? [])
        let bytes = driver.send(.getObject, [SonyObjectHandle.stillImage]).data?.allBytes ?? []
        return (info, bytes)
    }

    /// The value of the LONG entry `tag` in IFD0 of a little-endian TIFF the simulator wrote.
    static func ifd0Long(_ tiff: [UInt8], tag: UInt16) -> Int? {
        func u16(_ at: Int) -> Int { Int(tiff[at]) | Int(tiff[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard tiff.count >= 10 else { return nil }
        let ifd0 = u32(4)
        guard ifd0 + 2 <= tiff.count else { return nil }
        for index in 0..<u16(ifd0) {
            let entry = ifd0 + 2 + 12 * index
            guard entry + 12 <= tiff.count else { return nil }
            if u16(entry) == Int(tag) { return u32(entry + 8) }
        }
        return nil
    }

    @Test func rawPlusJPEGLeavesTheJPEGThenTheARWWithOneFileNumberAndSequenceNumber() throws {
        var driver = try CameraDriver {
            $0.fileFormat = .rawAndJPEG
            $0.processingTime = .zero
            $0.imageSize = 100_000
        }
        driver.connect()
        #expect(driver.camera.value(of: .compressionSetting) == .uint8(0x13))
        _ = driver.camera.takeEvents()
        Self.shoot(&driver)
        Self.shoot(&driver)
        #expect(driver.camera.value(of: .shootingFileInfo) == .uint16(0x8004))
        let added = driver.camera.takeEvents().filter { $0.code == .sonyObjectAdded }
        #expect(added.count == 4)
        var files: [(ObjectInfo, [UInt8])] = []
        for _ in 0..<4 { files.append(try Self.fetch(&driver)) }
        #expect(
            files.map(\.0.filename) == [
                "DSC00001_1-125s.JPG", "DSC00001_1-125s.ARW", "DSC00002_1-125s.JPG", "DSC00002_1-125s.ARW"
            ])
        #expect(files.map(\.0.objectFormat) == [0x3801, 0xB101, 0x3801, 0xB101])
        #expect(files.map(\.0.sequenceNumber) == [1, 1, 2, 2])
        #expect(files.map(\.1.count) == [100_000, 100_000, 100_000, 100_000])
        #expect(
            files.map { ImageFormat(detecting: $0.1) } == [.jpeg, .tiff(.littleEndian), .jpeg, .tiff(.littleEndian)])
        for (_, bytes) in files {
            let exif = try ExifReader.read(bytes)
            #expect(exif.exposureTime == ExifRational(numerator: 1, denominator: 125))
            #expect(exif.dateTimeOriginal == "2026:01:01 00:00:00")
        }
        #expect(driver.camera.value(of: .shootingFileInfo) == .uint16(0))
    }

    @Test func anARWIsATIFFWithMakeModelExifAndAnEmbeddedBaselineJPEGPreview() throws {
        var driver = try CameraDriver {
            $0.fileFormat = .raw
            $0.processingTime = .zero
            $0.imageSize = 400_000
        }
        driver.connect()
        _ = driver.send(.sdioSetExtDevicePropValue, [0xD20D], data: Speeds.twoSeconds.ptpValue.encoded)
        _ = driver.release()
        driver.wait(.seconds(2))
        let (info, bytes) = try Self.fetch(&driver)
        #expect(info.filename == "DSC00001_2s.ARW" && info.objectFormat == 0xB101)
        #expect(bytes.count == 400_000 && Array(bytes.prefix(4)) == [0x49, 0x49, 0x2A, 0x00])
        let exif = try ExifReader.read(bytes)
        #expect(exif.exposureTime == ExifRational(numerator: 20, denominator: 10))
        #expect(exif.make == "SONY" && exif.model == "ILCE-7M3")
        #expect(exif.dateTimeOriginal == "2026:01:01 00:00:00")
        // JPEGInterchangeFormat / Length point to a whole JPEG, SOI to EOI, with the zeros of the sensor data after it.
        let start = try #require(Self.ifd0Long(bytes, tag: 0x0201))
        let length = try #require(Self.ifd0Long(bytes, tag: 0x0202))
        #expect(length == 400_000 / 16)
        #expect(start % 2 == 0 && start + length <= bytes.count)
        #expect(Array(bytes[start..<(start + 3)]) == [0xFF, 0xD8, 0xFF])
        #expect(Array(bytes[(start + length - 2)..<(start + length)]) == [0xFF, 0xD9])
        #expect(bytes[(start + length)...].allSatisfy { $0 == 0 })
        // The reader finds the ExposureTime from a prefix too, as hdrshoot reads files on disk.
        let prefixed = try ExifReader.read(maximumLength: 1 << 20) { Array(bytes.prefix($0)) }
        #expect(prefixed.exposureTime == exif.exposureTime)
    }

    @Test func aLargeARWIsProducedInSlicesThatAgreeWithTheWhole() throws {
        let exif = ExifFields(
            exposureTime: ExifRational(numerator: 1, denominator: 8000), dateTimeOriginal: "2026:01:01 00:00:00",
            make: "SONY", model: "ILCE-7M3")
        let image = GeneratedImage(
            rawSize: 25_000_000, fileName: "DSC00001_1-8000s.ARW", exif: exif, previewSize: 30_000, comment: "big")
        #expect(image.size == 25_000_000 && image.format == .arw)
        let preview = try #require(image.embeddedPreview)
        // A slice across the head and the preview's start, and one across the preview's end and the zeros.
        let head = image.bytes(in: 0..<(preview.lowerBound + 10))
        #expect(Array(head.suffix(10).prefix(2)) == [0xFF, 0xD8])
        let tail = image.bytes(in: (preview.upperBound - 2)..<(preview.upperBound + 4))
        #expect(tail == [0xFF, 0xD9, 0, 0, 0, 0])
        #expect(try ExifReader.read(head).exposureTime == exif.exposureTime)
        #expect(image.bytes(in: 24_999_990..<25_000_010).count == 10)
    }

    @Test func d215CountsFilesButWithD215PairsAPairCountsOnceUntilItsRawIsFetched() throws {
        for countsPairs in [false, true] {
            var driver = try CameraDriver {
                $0.fileFormat = .rawAndJPEG
                $0.processingTime = .zero
                $0.quirks = countsPairs ? [.shootingFileInfoCountsCaptures] : []
            }
            driver.connect()
            Self.shoot(&driver)
            Self.shoot(&driver)
            var seen: [PTPValue?] = [driver.camera.value(of: .shootingFileInfo)]
            for _ in 0..<4 {
                _ = try Self.fetch(&driver)
                seen.append(driver.camera.value(of: .shootingFileInfo))
            }
            let expected: [UInt16] =
                countsPairs ? [0x8002, 0x8002, 0x8001, 0x8001, 0] : [0x8004, 0x8003, 0x8002, 0x8001, 0]
            #expect(seen == expected.map { .uint16($0) }, "d215-pairs: \(countsPairs)")
        }
    }

    @Test func savedToTheCardOnlyTheReleasesFireAndTakeShotsButNothingWaits() throws {
        var driver = try CameraDriver {
            $0.saveDestination = .camera
            $0.processingTime = .zero
            $0.cardShots = 10
        }
        driver.connect()
        #expect(driver.camera.value(of: .saveDestination) == .uint16(0x0010))
        #expect(driver.camera.value(of: SonyPropertyCode(rawValue: 0xD268)) == nil)
        _ = driver.camera.takeEvents()
        Self.shoot(&driver)
        Self.shoot(&driver)
        #expect(driver.camera.frameCount == 2)
        #expect(driver.camera.takeFinishedCaptures().count == 2)
        #expect(driver.camera.value(of: .remainingShots) == .uint32(8))
        #expect(driver.camera.value(of: .shootingFileInfo) == .uint16(0))
        #expect(driver.camera.buffer.isEmpty)
        #expect(!driver.camera.takeEvents().contains { $0.code == .sonyObjectAdded })
        #expect(driver.send(.getObjectInfo, [SonyObjectHandle.stillImage]).code == .invalidObjectHandle)
    }

    @Test func savedToBothTheFileWaitsForTheHostAsWell() throws {
        var driver = try CameraDriver {
            $0.saveDestination = .both
            $0.processingTime = .zero
        }
        driver.connect()
        #expect(driver.camera.value(of: .saveDestination) == .uint16(0x0011))
        Self.shoot(&driver)
        #expect(driver.camera.value(of: .shootingFileInfo) == .uint16(0x8001))
    }

    @Test func smallTransferSizeSendsOneSmallJPEGWithExifAndNoRaw() throws {
        var driver = try CameraDriver {
            $0.fileFormat = .rawAndJPEG
            $0.processingTime = .zero
            $0.imageSize = 1_600_000
        }
        driver.connect()
        #expect(driver.camera.value(of: SonyPropertyCode(rawValue: 0xD268)) == .uint8(0x01))
        #expect(driver.send(.sdioSetExtDevicePropValue, [0xD268], data: [0x02]).code == .ok)
        #expect(driver.send(.sdioSetExtDevicePropValue, [0xD268], data: [0x03]).code == .invalidDevicePropValue)
        Self.shoot(&driver)
        #expect(driver.camera.value(of: .shootingFileInfo) == .uint16(0x8001))
        let (info, bytes) = try Self.fetch(&driver)
        #expect(info.objectFormat == 0x3801 && info.filename == "DSC00001_1-125s.JPG")
        #expect(bytes.count == 100_000 && Int(info.objectCompressedSize) == bytes.count)
        #expect(Array(bytes.suffix(2)) == [0xFF, 0xD9])
        #expect(try ExifReader.read(bytes).exposureTime == ExifRational(numerator: 1, denominator: 125))
        #expect(driver.camera.buffer.isEmpty)
    }

    @Test func aSmallJPEGIsAtLeastAFewKilobytes() throws {
        var driver = try CameraDriver {
            $0.processingTime = .zero
            $0.imageSize = 20_000
        }
        driver.connect()
        _ = driver.send(.sdioSetExtDevicePropValue, [0xD268], data: [0x02])
        Self.shoot(&driver)
        #expect(try Self.fetch(&driver).bytes.count == 4096)
    }

    @Test(
        arguments: [
            (UInt8(0x01), ["DSC00001_1-125s.JPG", "DSC00001_1-125s.ARW"]), (UInt8(0x02), ["DSC00001_1-125s.JPG"]),
            (UInt8(0x03), ["DSC00001_1-125s.ARW"])
        ] as [(UInt8, [String])])
    func rawJPEGPCSaveImageDecidesWhichFilesOfAPairGoToTheHost(value: UInt8, names: [String]) throws {
        var driver = try CameraDriver {
            $0.fileFormat = .rawAndJPEG
            $0.processingTime = .zero
        }
        driver.connect()
        #expect(driver.send(.sdioSetExtDevicePropValue, [0xD269], data: [value]).code == .ok)
        Self.shoot(&driver)
        #expect(driver.camera.buffer.map(\.image.fileName) == names)
    }

    @Test func onlyARawPlusJPEGBodyHasRawJPEGPCSaveImage() throws {
        for format in SimulatedFileFormat.allCases {
            let driver = try CameraDriver { $0.fileFormat = format }
            let has = driver.camera.value(of: SonyPropertyCode(rawValue: 0xD269)) != nil
            #expect(has == (format == .rawAndJPEG), "\(format)")
            #expect(driver.camera.value(of: SonyPropertyCode(rawValue: 0xD268)) == .uint8(0x01))
        }
    }
}
