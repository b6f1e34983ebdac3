import Glibc

/// SIGPIPE, which a write to a peer that has gone raises and which would
/// end the process: a thread that writes to sockets blocks it, and the write
/// fails with EPIPE instead.
public enum BrokenPipe {
    /// Blocks SIGPIPE on the calling thread (for the rest of its life).
    public static func blockOnThisThread() {
        var pipe = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipe, nil)
    }
}
