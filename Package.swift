// swift-tools-version:6.0
// hdrshoot: automated HDR bracketing for Sony Alpha cameras over PTP/IP.
// No third-party dependencies: only what the Swift toolchain ships.
// Linux only: the Posix layer calls Glibc and the network monitor speaks netlink, so no other platform is declared.
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]
/// The pixel code (scene rendering, the JPEG encoder and decoder) is optimised in debug builds too: the tests and
/// `hdrshoot simulate --scene` push millions of pixels through it, which unoptimised code does ten times slower.
let optimisedInDebug: [SwiftSetting] = strict + [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "hdrshoot",
    products: [
        .executable(name: "hdrshoot", targets: ["hdrshoot"])
    ],
    targets: [
        // Pure layers (no I/O, no Glibc).
        .target(name: "Exposure", swiftSettings: strict),
        // The one JSON value type (any JSON, members in order, written by hand): the Camera Remote API's params
        // and results and the session log's lines.
        .target(name: "JSON", swiftSettings: strict),
        .target(name: "ByteCoding", swiftSettings: strict),
        // Time on an injected clock: the one timeout helper and the one stopwatch (pure).
        .target(name: "Timing", swiftSettings: strict),
        // The one HTTP/1.1 codec (pure): request and response framing within limits, for every client and server.
        .target(name: "HTTP", swiftSettings: strict),
        // The one scanner of UPnP device descriptions (dd.xml, DigitalImagingDesc.xml), strict or tolerant (pure).
        .target(name: "UPnPDescription", swiftSettings: strict),
        // EXIF in JPEG and TIFF/ARW files, and file formats told from their first bytes (pure).
        .target(name: "ImageMetadata", dependencies: ["ByteCoding"], swiftSettings: strict),
        // Luma from JPEGs (a DC-only baseline decoder, ARW previews), range checks, a small encoder (pure).
        .target(
            name: "ImageLuminance", dependencies: ["ByteCoding", "ImageMetadata", "Exposure"],
            swiftSettings: optimisedInDebug),

        // The one system-call layer: typed Errno, EINTR retry, sockets, the I/O event loop, file writes.
        .target(name: "Posix", swiftSettings: strict),

        // Protocol and device layers.
        // PTP/IP's wire format (pure): packets, the framer, the data-phase check, datasets, the generic codes and
        // the codec's own error; shared by the client, the simulator, SonyProtocol and the fuzz target.
        .target(name: "PTPIPCodec", dependencies: ["ByteCoding"], swiftSettings: strict),
        // The PTP/IP client and its transports (TCP, UDP) over Posix sockets.
        .target(name: "PTPIP", dependencies: ["PTPIPCodec", "Timing", "Posix"], swiftSettings: strict),
        .target(name: "Shooting", dependencies: ["Exposure", "Timing", "Posix"], swiftSettings: strict),
        // Sony's SDIO vocabulary and wire formats (pure): shared by the camera module and the simulator,
        // so the two never hold two codecs.
        .target(
            name: "SonyProtocol", dependencies: ["PTPIPCodec", "Exposure", "ByteCoding"], swiftSettings: strict),
        .target(
            name: "SonyCamera",
            dependencies: [
                "SonyProtocol", "PTPIPCodec", "PTPIP", "HTTP", "UPnPDescription", "Shooting", "Exposure",
                "ImageMetadata", "Timing", "Posix"
            ],
            swiftSettings: strict),
        .target(
            name: "CameraSimulator",
            dependencies: [
                "SonyProtocol", "PTPIPCodec", "PTPIP", "ByteCoding", "ImageMetadata", "Timing", "Posix",
                "ImageLuminance",
                "Exposure", "HTTP", "JSON", "SessionLog"
            ],
            swiftSettings: strict),
        // PTP/IP over SSH for bodies with Access Authentication on: the system's OpenSSH `ssh` as a runtime helper,
        // the host key pinned in hdrshoot's own known-hosts file, the password handed over without argv or env.
        .target(name: "CameraTunnel", dependencies: ["Posix"], swiftSettings: strict),
        .target(name: "NetworkMonitor", dependencies: ["ByteCoding", "Posix", "Timing"], swiftSettings: strict),
        // Session logs: JSON Lines written off the hot path, the logs folder and its rotation, reading logs back.
        .target(
            name: "SessionLog", dependencies: ["JSON", "PTPIPCodec", "PTPIP", "Posix", "Timing"], swiftSettings: strict),
        // Sony's legacy Camera Remote API (JSON-RPC over HTTP/1.1) for older bodies: the client over Posix sockets
        // and the HTTP codec, the typed methods and the shutter labels.
        .target(
            name: "CameraRemoteAPI", dependencies: ["JSON", "HTTP", "UPnPDescription", "Exposure", "Timing", "Posix"],
            swiftSettings: strict),
        // A simulated legacy body (HTTP server on loopback, JSON-RPC, postviews with EXIF) and its process.
        .target(
            name: "LegacyCameraSimulator",
            dependencies: [
                "JSON",
                "CameraRemoteAPI", "CameraSimulator", "HTTP", "PTPIP", "Exposure", "ImageMetadata", "Timing", "Posix"
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "legacy-simulator", dependencies: ["LegacyCameraSimulator", "CameraSimulator"], swiftSettings: strict),
        // A legacy body as a `RemoteCamera`: session, set-then-confirm, release and BULB, postviews as images.
        .target(
            name: "LegacyCamera",
            dependencies: ["CameraRemoteAPI", "Shooting", "Exposure", "ImageMetadata", "Timing", "Posix"],
            swiftSettings: strict),

        // The application layer: the one owner of a running shoot (state enum, commands in, one Codable update
        // stream out), driven by every front end; no terminal, no argv, no exit code.
        .target(
            name: "ShootKit",
            dependencies: [
                "Exposure", "Shooting", "Timing", "ImageLuminance", "NetworkMonitor", "Posix", "SonyCamera",
                "LegacyCamera", "JSON", "SessionLog", "PTPIP", "PTPIPCodec", "CameraRemoteAPI", "CameraTunnel",
                "CameraSimulator",
                "LegacyCameraSimulator"
            ],
            swiftSettings: strict),

        // Front ends.
        // The phone remote: an HTTP server over Posix sockets and the one HTTP codec, Server-Sent Events, the page,
        // the access rules and the QR code of its URL; it drives the application layer, never a shoot of its own.
        .target(
            name: "WebRemote", dependencies: ["HTTP", "Posix", "Timing", "ShootKit", "ImageLuminance", "Exposure"],
            swiftSettings: strict),
        .target(
            name: "HDRShootCLI",
            dependencies: [
                "JSON",
                "Exposure", "PTPIPCodec", "PTPIP", "SonyProtocol", "Shooting", "SonyCamera", "CameraSimulator",
                "NetworkMonitor", "Posix", "ImageLuminance", "SessionLog", "CameraRemoteAPI", "LegacyCamera",
                "LegacyCameraSimulator", "Timing", "ShootKit", "CameraTunnel", "WebRemote"
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "hdrshoot", dependencies: ["HDRShootCLI"], swiftSettings: strict),

        // Test helpers shared by the test targets (a virtual clock, fixture loading, process running, loopback
        // sockets and simulators, network namespaces, runner setup).
        .target(
            name: "TestSupport", dependencies: ["Shooting", "Exposure", "CameraSimulator", "PTPIPCodec", "Posix"],
            path: "Tests/TestSupport",
            swiftSettings: strict),

        // Benchmarks: print figures, never assert timings.
        .executableTarget(
            name: "hdrshoot-bench",
            dependencies: [
                "Exposure", "ByteCoding", "PTPIPCodec", "PTPIP", "Shooting", "SonyCamera", "CameraSimulator",
                "NetworkMonitor",
                "ImageLuminance", "CameraRemoteAPI", "LegacyCameraSimulator", "SessionLog", "Posix"
            ],
            path: "Benchmarks/hdrshoot-bench",
            swiftSettings: strict
        ),

        .testTarget(name: "PosixTests", dependencies: ["Posix", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "SessionLogTests", dependencies: ["JSON", "SessionLog", "Posix", "TestSupport"], swiftSettings: strict
        ),
        .testTarget(name: "ExposureTests", dependencies: ["Exposure"], swiftSettings: strict),
        .testTarget(name: "ByteCodingTests", dependencies: ["ByteCoding", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP"], swiftSettings: strict),
        .testTarget(name: "JSONTests", dependencies: ["JSON"], swiftSettings: strict),
        .testTarget(name: "UPnPDescriptionTests", dependencies: ["UPnPDescription"], swiftSettings: strict),
        .testTarget(
            name: "WebRemoteTests",
            dependencies: ["WebRemote", "HTTP", "Posix", "TestSupport", "ImageLuminance", "Exposure", "ShootKit"],
            swiftSettings: strict),
        .testTarget(name: "TimingTests", dependencies: ["Timing", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ImageLuminanceTests",
            dependencies: ["ImageLuminance", "ImageMetadata", "Exposure", "ByteCoding", "TestSupport"],
            swiftSettings: strict),
        .testTarget(name: "ImageMetadataTests", dependencies: ["ImageMetadata", "ByteCoding"], swiftSettings: strict),
        .testTarget(
            name: "PTPIPCodecTests", dependencies: ["PTPIPCodec", "ByteCoding", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "PTPIPTests", dependencies: ["PTPIPCodec", "PTPIP", "ByteCoding", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "SonyProtocolTests",
            dependencies: ["SonyProtocol", "PTPIPCodec", "Exposure", "ByteCoding", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "ShootingTests", dependencies: ["Shooting", "Exposure", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "SonyCameraTests",
            dependencies: [
                "SonyCamera", "CameraSimulator", "SonyProtocol", "PTPIPCodec", "PTPIP", "Shooting", "Exposure",
                "TestSupport", "Posix", "Timing", "ImageMetadata"
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CameraSimulatorTests",
            dependencies: [
                "CameraSimulator", "PTPIPCodec", "PTPIP", "SonyProtocol", "ByteCoding", "ImageMetadata", "TestSupport",
                "Timing",
                "ImageLuminance", "Exposure"
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CameraRemoteAPITests",
            dependencies: [
                "CameraRemoteAPI", "LegacyCameraSimulator", "Exposure", "ImageMetadata", "Posix", "TestSupport"
            ],
            swiftSettings: strict),
        .testTarget(
            name: "LegacyCameraTests",
            dependencies: [
                "LegacyCamera", "LegacyCameraSimulator", "CameraRemoteAPI", "Shooting", "Exposure", "TestSupport"
            ],
            swiftSettings: strict),
        .testTarget(
            name: "LegacyCameraSimulatorTests",
            dependencies: ["LegacyCameraSimulator", "CameraSimulator", "CameraRemoteAPI", "HTTP", "Posix"],
            swiftSettings: strict),
        .testTarget(
            name: "NetworkMonitorTests", dependencies: ["NetworkMonitor", "ByteCoding", "TestSupport", "Posix"],
            swiftSettings: strict),
        .testTarget(
            name: "ShootKitTests",
            dependencies: [
                "ShootKit", "Shooting", "Exposure", "Timing", "ImageLuminance", "TestSupport", "SonyCamera",
                "CameraSimulator", "PTPIP", "PTPIPCodec", "NetworkMonitor", "CameraTunnel", "LegacyCamera",
                "LegacyCameraSimulator"
            ],
            swiftSettings: strict),
        // The deterministic simulation: seeded field days of the whole stack over in-memory connections.
        .testTarget(
            name: "SimulationTests",
            dependencies: [
                "SonyCamera", "CameraSimulator", "Shooting", "Exposure", "ImageMetadata", "PTPIP", "PTPIPCodec",
                "SonyProtocol", "Posix", "TestSupport"
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HDRShootCLITests",
            dependencies: [
                "JSON",
                "HDRShootCLI", "Exposure", "PTPIP", "PTPIPCodec", "Shooting", "SonyCamera", "CameraSimulator",
                "NetworkMonitor",
                "TestSupport", "ImageLuminance", "SessionLog", "Posix", "LegacyCameraSimulator", "ShootKit",
                "LegacyCamera", "CameraRemoteAPI", "HTTP", "CameraTunnel"
            ],
            swiftSettings: strict
        )
    ]
)
