import CHeraldShim

/// Herald's version, as `herald version` and `herald_build_info` report it: the
/// repository's VERSION file, compiled in by the package manifest.
public enum HeraldVersion {
    public static let current = String(cString: herald_version())
}
