extension SimulatorQuirk {
    /// One quirk as a photographer reads about it: its `--quirk` spelling and what the simulated body then does.
    package struct Entry: Sendable, Hashable {
        /// The spelling `--quirk` takes, with its argument's placeholder (`idle-drop:SECONDS`).
        package let spelling: String
        /// What the body does, in one or two sentences.
        package let behaviour: String
    }

    /// Every quirk, documented once: `hdrshoot simulate --help`, the man page and
    /// `docs/commands/hdrshoot-simulate.md` show this list, and `spellings` comes from it. Each behaviour's source
    /// (a field report, a reference page) is named on its case.
    package static let catalog: [Entry] = [
        Entry(
            spelling: "idle-drop:SECONDS",
            behaviour: "Both connections close SECONDS after the last operation request (any request, a 0x9209 read "
                + "too); an exposure under way carries on and its image waits for the next session (A7C II)."),
        Entry(
            spelling: "startup-nofire:SECONDS",
            behaviour: "For SECONDS after OpenSession, S2 down is answered OK and fires nothing."),
        Entry(
            spelling: "focus-switch",
            behaviour: "A physical AF/MF switch: the focus mode 0x500A is display-only (a set gets AccessDenied "
                + "0x200F) and there is no AF with Shutter (0xD1AD)."),
        Entry(
            spelling: "af-lock:MS",
            behaviour: "In AF (with AF with Shutter on), S2 fires only once S1 has been down MS milliseconds; "
                + "earlier it is answered OK and ignored."),
        Entry(
            spelling: "af-fail",
            behaviour: "In AF, focus never locks (0xD213 says not focused) and S2 never fires."),
        Entry(
            spelling: "shutter-range[:d229]",
            behaviour: "The shutter speed 0xD20D is described as a range of 0 to 0xFFFFFFFF that names no speed "
                + "(the ILCE-6000's); the body still stops at its real ends (30\" and --max-shutter); with d229 the "
                + "speeds are listed in 0xD229 (read only, follows 0xD20D)."),
        Entry(
            spelling: "direct-set-refused[:CODE]",
            behaviour: "On protocol 3.00 a direct shutter set (0x9205 on 0xD20D) is answered CODE (default 0x201C "
                + "InvalidDevicePropValue) and changes nothing; notch steps (0x9207) still work."),
        Entry(
            spelling: "direct-set-ignored",
            behaviour: "On protocol 3.00 a direct shutter set is answered OK and changes nothing."),
        Entry(
            spelling: "lost-notch:N",
            behaviour: "The next N shutter notch steps (0x9207) are answered OK and not applied."),
        Entry(
            spelling: "no-events",
            behaviour: "Nothing is ever sent on the event connection; 0x9209 still shows every change."),
        Entry(
            spelling: "busy-at-start:N",
            behaviour: "The first N SDIO_Connect (0x9201) or 0x9209 requests of every session are answered "
                + "DeviceBusy (0x2019)."),
        Entry(
            spelling: "d215-lag",
            behaviour: "After a download the next 0x9209 still shows 0xD215 = 0x8001 once, though the image is gone."),
        Entry(
            spelling: "transfer-long:BYTES",
            behaviour: "GetObject sends the JPEG plus BYTES zeros while ObjectInfo announces the JPEG's size."),
        Entry(
            spelling: "transfer-short:BYTES",
            behaviour: "GetObject sends the JPEG's first size - BYTES bytes while ObjectInfo announces its size."),
        Entry(
            spelling: "objectinfo-empty",
            behaviour: "GetObjectInfo names no file and says size 0; GetObject still sends the JPEG."),
        Entry(
            spelling: "objectinfo-garbled",
            behaviour: "GetObjectInfo's data phase is 7 bytes cut from the dataset; GetObject still sends the JPEG."),
        Entry(
            spelling: "lenr",
            behaviour: "Long Exposure NR on: after each exposure of 1 s or more the body takes a dark frame as long "
                + "as the exposure, busy meanwhile; the capture log gets noiseReductionSeconds."),
        Entry(
            spelling: "d215-pairs",
            behaviour: "0xD215 counts captures, not files: after the JPEG of a RAW+JPEG pair is fetched it reads the "
                + "same until the ARW is fetched too."),
        Entry(
            spelling: "speed-ignored-while-buffered",
            behaviour: "A shutter speed set is answered OK and changes nothing while captures process or wait in the "
                + "buffer (or a dark frame runs)."),
        Entry(
            spelling: "busy-while-buffered",
            behaviour: "A one-image buffer: S2 down is answered DeviceBusy while a capture processes or waits."),
        Entry(
            spelling: "lists-captured-event-without-sending",
            behaviour: "DeviceInfo lists the captured event 0xC206, which is never sent; ObjectAdded, 0xD215 and "
                + "shots left still show each release."),
        Entry(
            spelling: "no-d215",
            behaviour: "No 0xD215 in the property dumps: ObjectAdded 0xC201 alone announces each image."),
        Entry(
            spelling: "mode-u16",
            behaviour: "0x500E as protocol 2.00 writes it: a u16 (S is 0x0004, not 0x00030004; iAuto 0x8000).")
    ]
}
