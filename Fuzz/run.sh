#!/bin/sh
# Builds the PTP/IP codec, EXIF reader and JPEG luma decoder fuzz target with libFuzzer + AddressSanitizer and
# runs it.
#
#   Fuzz/run.sh                       # 10 minutes (default arguments below)
#   Fuzz/run.sh -runs=100000          # any libFuzzer arguments replace the defaults
#
# Only the codec's sources go in (ByteCoding, ImageMetadata and the PTPIP codec: PTPIPError, Codec/, Datasets/),
# plus Posix, whose Errno PTPIPError carries, and the luma decoder (ImageLuminance, with the Exposure types it
# uses); the target needs nothing but the Swift toolchain, which ships libFuzzer (clang_rt.fuzzer).
set -eu
cd "$(dirname "$0")/.."
out=.build/fuzz
mkdir -p "$out/corpus"
flags="-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -package-name hdrshoot"

# ByteCoding as its own module (PTPIP imports it).
swiftc $flags -module-name ByteCoding -emit-module -emit-module-path "$out/ByteCoding.swiftmodule" \
    -wmo -c -o "$out/ByteCoding.o" Sources/ByteCoding/*.swift
# The system-call layer as its own module (PTPIPError carries its Errno; nothing in the codec calls it).
swiftc $flags -module-name Posix -emit-module -emit-module-path "$out/Posix.swiftmodule" \
    -wmo -c -o "$out/Posix.o" Sources/Posix/*.swift
# The EXIF reader and writer as their own module (the entry point imports it).
swiftc $flags -module-name ImageMetadata -I "$out" -emit-module -emit-module-path "$out/ImageMetadata.swiftmodule" \
    -wmo -c -o "$out/ImageMetadata.o" Sources/ImageMetadata/*.swift
# The shutter-speed types and the JPEG luma decoder as their own modules (the entry point imports the decoder).
swiftc $flags -module-name Exposure -emit-module -emit-module-path "$out/Exposure.swiftmodule" \
    -wmo -c -o "$out/Exposure.o" Sources/Exposure/*.swift
swiftc $flags -module-name ImageLuminance -I "$out" -emit-module -emit-module-path "$out/ImageLuminance.swiftmodule" \
    -wmo -c -o "$out/ImageLuminance.o" Sources/ImageLuminance/*.swift
# The codec and the entry point as one module.
swiftc $flags -module-name PTPIP -I "$out" \
    Sources/PTPIP/PTPIPError.swift Sources/PTPIP/Codec/*.swift Sources/PTPIP/Datasets/*.swift Fuzz/FuzzTarget.swift \
    Fuzz/FuzzTarget+Luma.swift "$out/ByteCoding.o" "$out/ImageMetadata.o" "$out/Posix.o" "$out/Exposure.o" \
    "$out/ImageLuminance.o" -o "$out/ptpip-fuzz"

# Seed the corpus with real camera bytes when the shared fixtures are there.
for seed in ../shared/fixtures/sony/*.bin; do
    [ -f "$seed" ] && cp "$seed" "$out/corpus/"
done

if [ $# -eq 0 ]; then
    set -- -max_total_time=600 -print_final_stats=1
fi
exec "$out/ptpip-fuzz" "$out/corpus" "$@"
