import PTPIPCodec

/// What a PTP DeviceInfo says about Sony's extensions.
extension DeviceInfo {
    /// The VendorExtensionID Sony cameras report.
    package static let sonyVendorExtensionID: UInt32 = 0x11

    /// Whether the camera announces Sony's extensions (VendorExtensionID 0x11).
    package var isSony: Bool { vendorExtensionID == Self.sonyVendorExtensionID }
}
