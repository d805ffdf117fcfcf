import OddsDashboard
import OddsTerminal

/// Draws a frame as `odds dash` does (only when something on screen changed) and adds up the CPU of
/// layout and of drawing.
struct FrameMeter {
    var layoutCPU = 0.0, drawCPU = 0.0
    var framesDrawn = 0

    mutating func frame(_ model: inout DashboardModel, on terminal: CursesTerminal) {
        guard model.needsDraw else { return }
        let l0 = cpuSeconds()
        let screen = DashboardLayout.layout(model)
        let l1 = cpuSeconds()
        terminal.draw(screen)
        model.drawn()
        layoutCPU += l1 - l0
        drawCPU += cpuSeconds() - l1
        framesDrawn += 1
    }
}
