import CCurl

/// The C callbacks installed on every easy handle; each finds its `Transfer`
/// through the user-data pointer libcurl passes back.
enum CurlCallbacks {
    static let write: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        data, size, count, userData in
        let total = size * count
        guard let userData else { return 0 }
        guard total > 0, let data else { return total }
        let accepted = Transfer.from(userData).receiveBody(UnsafeRawBufferPointer(start: data, count: total))
        return accepted ? total : 0
    }

    static let header: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        data, size, count, userData in
        let total = size * count
        guard let userData, let data, total > 0 else { return total }
        Transfer.from(userData).receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: total))
        return total
    }
}
