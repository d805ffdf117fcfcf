/// How simulated data is labelled wherever it is shown (a table's banner, a chart written to a file).
public enum DemoLabel {
    public static let banner = "DEMO DATA — simulated by the built-in simulator, not real odds"
}
