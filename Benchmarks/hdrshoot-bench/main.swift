print("hdrshoot-bench: no benchmarks yet")
