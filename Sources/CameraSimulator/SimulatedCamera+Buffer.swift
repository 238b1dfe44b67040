import PTPIPCodec
import SonyProtocol

// MARK: - The buffer: captures processing behind the shutter, files waiting as 0xFFFFC001, transfers

extension SimulatedCamera {
    /// One release, from S2 to its files.
    package struct Capture: Sendable, Equatable {
        /// The frame number (1, 2, ... since the simulator started; also the file number and SequenceNumber).
        package var frame: Int
        /// The raw 0xD20D value it was shot at.
        package var shutterValue: UInt32
        /// When the exposure started.
        package var started: Duration
        /// How long the sensor was exposed (zero until the exposure ends).
        package var exposure: Duration
        /// The files it leaves for the host, in buffer order (none when stills go to the card only); decided at
        /// the release from the format, 0xD222, 0xD268 and 0xD269 as they were then.
        package var files: [FileKind]
    }

    /// The kinds of file a capture leaves in the buffer.
    package enum FileKind: Sendable, Equatable {
        /// The JPEG as shot.
        case jpeg
        /// A small JPEG (0xD268 Small Size JPEG): 1/16 of the configured size, at least `smallJPEGMinimum`.
        case smallJPEG
        /// The ARW.
        case raw
    }

    /// A capture processing behind the shutter until `readyAt`.
    package struct ProcessingCapture: Sendable, Equatable {
        /// The capture.
        package var capture: Capture
        /// When its files join the buffer.
        package var readyAt: Duration
    }

    /// A file waiting in the camera's buffer; the oldest is object 0xFFFFC001.
    package struct BufferedImage: Sendable, Equatable {
        /// The frame that produced it.
        package var frame: Int
        /// The raw 0xD20D value it was shot at.
        package var shutterValue: UInt32
        /// The file (JPEG or ARW).
        package var image: GeneratedImage
        /// ObjectInfo's SequenceNumber: the same for the JPEG and the ARW of one capture (reference p. 47).
        package var sequenceNumber: UInt32 { UInt32(clamping: frame) }
    }

    /// Smallest small-size JPEG (0xD268 = Small Size JPEG), in bytes.
    static let smallJPEGMinimum = 4096

    /// The oldest file waiting, object 0xFFFFC001; nil when the buffer is empty.
    package var buffered: BufferedImage? { buffer.first }

    /// Captures the body holds: processing, or with a file still waiting (what `bufferCapacity` limits).
    package var capturesHeld: Int { processing.count + waitingCaptures }

    /// Captures with at least one file waiting (a RAW+JPEG pair counts once).
    private var waitingCaptures: Int {
        var count = 0
        var last: Int?
        for file in buffer where file.frame != last {
            count += 1
            last = file.frame
        }
        return count
    }

    /// Whether the body is still busy with captures: a dark frame, images processing, or files waiting.
    var isBusyWithCaptures: Bool {
        if case .darkFrame = shutter { return true }
        return !processing.isEmpty || !buffer.isEmpty
    }

    /// The files a release now leaves for the host (reference pp. 459, 491-492).
    func filePlan() -> [FileKind] {
        if value(of: .saveDestination) == .uint16(SonySaveDestination.camera.rawValue) { return [] }
        if value(of: TransferProperty.stillImageTransSize) == .uint8(TransferProperty.smallSizeJPEG) {
            // Small Size JPEG: one small JPEG, and no RAW goes to the host.
            return [.smallJPEG]
        }
        switch configuration.fileFormat {
        case .jpeg: return [.jpeg]
        case .raw: return [.raw]
        case .rawAndJPEG:
            switch value(of: TransferProperty.rawJPEGSaveImage) {
            case .uint8(TransferProperty.jpegOnly)?: return [.jpeg]
            case .uint8(TransferProperty.rawOnly)?: return [.raw]
            default: return [.jpeg, .raw]
            }
        }
    }

    /// Processing is over: the card's shots left (0xD249) drop by one, the files join the buffer (JPEG first),
    /// each announced with ObjectAdded (0xC201), and 0xD215 counts them.
    mutating func storeFiles(of capture: Capture) {
        if case let .uint32(left)? = self.value(of: QuirkProperty.remainingShots), left > 0 {
            setValue(.uint32(left - 1), of: QuirkProperty.remainingShots)
        }
        for kind in capture.files {
            let image = makeImage(capture, kind: kind)
            buffer.append(BufferedImage(frame: capture.frame, shutterValue: capture.shutterValue, image: image))
        }
        guard !capture.files.isEmpty else { return }
        updateShootingFileInfo()
        for _ in capture.files {
            events.append(
                PTPEvent(code: .sonyObjectAdded, transactionID: 0xFFFF_FFFF, parameters: [SonyObjectHandle.stillImage]))
        }
    }

    /// The photographer put in another memory card (or freed space on it): 0xD249 (reference p. 461) reads `shots`,
    /// with its DevicePropChanged, and a release fires again. The buffer is the body's own memory and is kept.
    package mutating func cardSwapped(shots: Int) {
        setValue(.uint32(UInt32(clamping: shots)), of: QuirkProperty.remainingShots)
    }

    /// Whether the card is full (0xD249 reads 0): a release fires nothing (`releaseFires`).
    package var cardIsFull: Bool { value(of: QuirkProperty.remainingShots) == .uint32(0) }

    /// 0xD215 counts the files waiting (reference pp. 448-449); with `d215-pairs`, the captures waiting.
    mutating func updateShootingFileInfo() {
        let count = quirks.shootingFileInfoCountsCaptures ? waitingCaptures : buffer.count
        setValue(.uint16(SonyShootingFileInfo(imagesWaiting: count).rawValue), of: .shootingFileInfo)
    }

    /// The last byte of the oldest file was sent: it leaves the buffer.
    private mutating func imageDelivered() {
        // The never-idle fault keeps the image (and 0xD215) in the buffer for good.
        guard !faults.neverIdle, !buffer.isEmpty else { return }
        buffer.removeFirst()
        if quirks.shootingFileInfoLag {
            // d215-lag: 0xD215 keeps its value for one more 0x9209 (see `propertiesRead()`).
            shootingFileInfoLagging = true
            changed.insert(.shootingFileInfo)
            return
        }
        updateShootingFileInfo()
    }

    /// The oldest file leaves the buffer unsent, as a body loses an image (a card error, a battery pulled and put
    /// back between shots): 0xD215 counts one fewer at once, with its DevicePropChanged. The deterministic
    /// simulation's vanished-image fault (Tests/SimulationTests); returns the lost file's frame, nil when the
    /// buffer is empty.
    package mutating func loseOldestImage() -> Int? {
        guard !buffer.isEmpty else { return nil }
        let lost = buffer.removeFirst()
        updateShootingFileInfo()
        propertyChanged(.shootingFileInfo)
        return lost.frame
    }

    // MARK: - Transfers (GetObject, GetPartialObject, SDIO_GetPartialLargeObject)

    /// GetObject (PTP 1.0 §10.5.8; reference p. 110): the whole oldest file, which then leaves the buffer.
    /// Answered while the shutter is open too, as bodies do.
    mutating func getObject(handle: UInt32) -> CameraReply {
        guard handle == SonyObjectHandle.stillImage, let buffered else { return CameraReply(.invalidObjectHandle) }
        let image = buffered.image
        imageDelivered()
        // transfer-long / transfer-short: more or fewer bytes than ObjectInfo announced (wire still valid).
        let sent = max(0, image.size + quirks.transferDelta)
        return CameraReply(.ok, data: .image(image, range: 0..<sent))
    }

    /// GetPartialObject / SDIO_GetPartialLargeObject (reference p. 119): at most `maximum` bytes of the oldest
    /// file from `offset`, response parameter 1 = the bytes sent; the file leaves the buffer once a chunk
    /// carried its last byte.
    mutating func partialObject(handle: UInt32, offset: UInt64, maximum: UInt32) -> CameraReply {
        guard handle == SonyObjectHandle.stillImage, let buffered else { return CameraReply(.invalidObjectHandle) }
        let image = buffered.image
        guard offset <= UInt64(image.size) else { return CameraReply(.invalidParameter) }
        let start = Int(offset)
        let end = start + min(image.size - start, Int(maximum))
        if end == image.size && end > start { imageDelivered() }
        return CameraReply(.ok, parameters: [UInt32(end - start)], data: .image(image, range: start..<end))
    }
}
