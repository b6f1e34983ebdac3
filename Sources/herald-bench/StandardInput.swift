import Glibc

/// Waits for end-of-file on standard input on a plain thread, off the cooperative pool.
enum StandardInput {
    static func waitForEOF() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            var thread = pthread_t()
            let box = Unmanaged.passRetained(ContinuationBox(continuation)).toOpaque()
            pthread_create(
                &thread, nil,
                { argument in
                    guard let argument else { return nil }
                    let box = Unmanaged<ContinuationBox>.fromOpaque(argument).takeRetainedValue()
                    var byte: UInt8 = 0
                    while read(0, &byte, 1) > 0 {}
                    box.continuation.resume()
                    return nil
                }, box)
            pthread_detach(thread)
        }
    }

    private final class ContinuationBox {
        let continuation: CheckedContinuation<Void, Never>
        init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
    }
}
