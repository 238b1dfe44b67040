import PTPIPCodec

/// Sony's SDIO operations (Sony "Camera Control PTP", protocol 3.00), in PTP's vendor range 0x9000-0x9FFF.
///
/// Each constant carries Sony's name, so messages about it read `SDIO_ControlDevice (0x9207)` wherever it goes.
extension OperationCode {
    /// SDIO_Connect = 0x9201: the three-phase Sony handshake after OpenSession.
    package static var sdioConnect: Self { Self(vendor: 0x9201, name: "SDIO_Connect") }
    /// SDIO_GetExtDeviceInfo = 0x9202: protocol version and the supported property/control codes.
    package static var sdioGetExtDeviceInfo: Self { Self(vendor: 0x9202, name: "SDIO_GetExtDeviceInfo") }
    /// SDIO_SetExtDevicePropValue = 0x9205: sets a Sony extended property (data-out).
    package static var sdioSetExtDevicePropValue: Self { Self(vendor: 0x9205, name: "SDIO_SetExtDevicePropValue") }
    /// SDIO_ControlDevice = 0x9207: presses a virtual button (data-out).
    package static var sdioControlDevice: Self { Self(vendor: 0x9207, name: "SDIO_ControlDevice") }
    /// SDIO_GetAllExtDevicePropInfo = 0x9209: every extended property descriptor (data-in).
    package static var sdioGetAllExtDevicePropInfo: Self { Self(vendor: 0x9209, name: "SDIO_GetAllExtDevicePropInfo") }

    /// Every Sony operation this package names.
    package static var sonyOperations: [OperationCode] {
        [
            .sdioConnect, .sdioGetExtDeviceInfo, .sdioSetExtDevicePropValue, .sdioControlDevice,
            .sdioGetAllExtDevicePropInfo
        ]
    }

    /// The same code with Sony's name when it is one of Sony's operations (for codes read from the wire).
    package var inSonyVocabulary: OperationCode { Self.sonyOperations.first { $0 == self } ?? self }
}
