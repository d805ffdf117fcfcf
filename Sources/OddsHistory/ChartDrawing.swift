import Foundation
import OddsModel

/// Draws a `PriceChart` in a terminal (Braille dots, or block cells without Unicode) and as a standalone SVG.
/// The axis labels are prices as the history keeps them (exact), and times in UTC.
public enum ChartDrawing {
    /// ANSI colours of the lines, in order: six, then their bright forms, so that a chart of a dozen books has no
    /// two lines alike.
    static let colours = ["36", "33", "35", "32", "34", "31", "96", "93", "95", "92", "94", "91"].map { "\u{1B}[\($0)m" }

    /// The SVG's stroke colours; past them, the same colours dashed, then dotted.
    static let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
    static let dashes = ["", " stroke-dasharray=\"8 4\"", " stroke-dasharray=\"2 3\""]

    /// The chart as terminal lines, `width` × `height` cells for the plot plus axes, legend and marks.
    /// `price` writes an axis price in the user's format.
    public static func terminal(_ c: PriceChart, width: Int, height: Int, unicode: Bool, colour: Bool,
                                price: (Rational) -> String) -> [String] {
        let top = price(c.high), bottom = price(c.low)
        let rows = max(4, height)
        // Per cell: the dots set (Braille: 2 × 4 a cell; blocks: one a cell) and the series that set them last.
        let dotsX = unicode ? 2 : 1, dotsY = unicode ? 4 : 1
        let ticks = Self.ticks(c, rows: rows, dotsY: dotsY, price: price)
        let axis = ([top.count, bottom.count] + ticks.values.map(\.count)).max()!
        let cols = max(10, width - axis - 3)
        var dots = Array(repeating: Array(repeating: UInt8(0), count: cols), count: rows)
        var owner = Array(repeating: Array(repeating: -1, count: cols), count: rows)
        let gridW = cols * dotsX, gridH = rows * dotsY
        func plot(_ gx: Int, _ gy: Int, _ s: Int) {
            guard gx >= 0, gx < gridW, gy >= 0, gy < gridH else { return }
            let cx = gx / dotsX, cy = gy / dotsY
            let bit: UInt8 = unicode ? brailleBit(gx % 2, gy % 4) : 1
            dots[cy][cx] |= bit
            owner[cy][cx] = s
        }
        func gy(_ o: Rational) -> Int { Int(((1 - c.level(o)) * Double(gridH - 1)).rounded()) }
        func gx(_ d: Date) -> Int { Int((c.position(d) * Double(gridW - 1)).rounded()) }
        for (s, series) in c.series.enumerated() {
            // Suspended or not watched: nothing drawn until the next price known.
            var last: (y: Int, to: Date)?
            for held in c.held(series) {
                let x0 = gx(held.from), x1 = gx(held.to), y = gy(held.odds)
                if let last, last.to == held.from {
                    for yy in min(y, last.y)...max(y, last.y) { plot(x0, yy, s) }
                }
                for x in x0...max(x0, x1) { plot(x, y, s) }
                last = (y, held.to)
            }
        }
        var lines: [String] = [c.title]
        for r in 0..<rows {
            let label = r == 0 ? top : r == rows - 1 ? bottom : ticks[r] ?? ""
            var line = String(repeating: " ", count: axis - label.count) + label + " ┤"
            if !unicode { line = String(line.dropLast()) + "|" }
            // One colour code a run of cells of one line, not one a cell.
            var painting = -1
            for x in 0..<cols {
                let d = dots[r][x]
                let who = d == 0 ? -1 : owner[r][x]
                if colour, who != painting, who >= 0 || painting >= 0 {
                    line += who >= 0 ? colours[who % colours.count] : "\u{1B}[0m"
                    painting = who
                }
                line += d == 0 ? " " : unicode ? String(UnicodeScalar(0x2800 + UInt32(d))!) : "*"
            }
            if painting >= 0 { line += "\u{1B}[0m" }
            lines.append(line)
        }
        let pad = String(repeating: " ", count: axis + 2)
        // The marks under the plot, then the times.
        var markRow = Array(repeating: Character(" "), count: cols)
        for m in c.marks { markRow[min(cols - 1, max(0, Int((c.position(m.at) * Double(cols - 1)).rounded())))] = m.symbol }
        // The axis dotted where no line's price is known.
        var axisRow = Array(repeating: Character(unicode ? "─" : "-"), count: cols)
        for gap in c.gaps {
            let a = Int((c.position(gap.lowerBound) * Double(cols - 1)).rounded()), b = Int((c.position(gap.upperBound) * Double(cols - 1)).rounded())
            for x in max(0, a)...min(cols - 1, max(a, b)) { axisRow[x] = unicode ? "┄" : "." }
        }
        lines.append(pad + (unicode ? "└" : "+") + String(axisRow))
        if !c.marks.isEmpty { lines.append(pad + " " + String(markRow)) }
        let start = clock(c.from), end = clock(c.to) + " UTC"
        lines.append(pad + " " + start + String(repeating: " ", count: max(1, cols - start.count - end.count)) + end)
        // The legend: a swatch and name a line, then the marks, in as many lines as the width needs.
        var items: [(text: String, width: Int)] = c.series.enumerated().map { s, series in
            let swatch = unicode ? "━━" : "--"
            return ((colour ? colours[s % colours.count] + swatch + "\u{1B}[0m" : swatch) + " " + series.name, 3 + series.name.count)
        }
        if !c.marks.isEmpty {
            let marks = c.marks.map { "\($0.symbol) \($0.label)" }.joined(separator: ", ")
            items.append((marks, marks.count))
        }
        if c.series.contains(where: { !$0.gaps.isEmpty }) {
            let text = (unicode ? "┄┄ " : ".. ") + Self.unwatched
            items.append((text, text.count))
        }
        var legend = "", used = 0
        for item in items {
            if used > 0, used + 3 + item.width > width {
                lines.append(legend)
                legend = ""; used = 0
            }
            if used > 0 { legend += "   "; used += 3 }
            legend += item.text; used += item.width
        }
        lines.append(legend)
        return lines
    }

    /// Prices labelling every fourth row between the top and the bottom (not within two rows of either): the price
    /// at the row's middle, to the cent, in the user's format.
    static func ticks(_ c: PriceChart, rows: Int, dotsY: Int, price: (Rational) -> String) -> [Int: String] {
        let gridH = rows * dotsY
        var out: [Int: String] = [:]
        for r in stride(from: 4, to: rows - 2, by: 4) {
            let level = 1 - (Double(r * dotsY) + Double(dotsY - 1) / 2) / Double(gridH - 1)
            guard let at = c.odds(atLevel: level) else { return [:] }
            let cents = (at * 100).rounded()
            guard cents > 100, let odds = Rational(Int64(cents), 100) else { continue }
            out[r] = price(odds)
        }
        return out
    }

    /// The Braille dot of column `x` (0–1) and row `y` (0–3) of a cell.
    static func brailleBit(_ x: Int, _ y: Int) -> UInt8 {
        let bits: [[UInt8]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]
        return bits[y][x]
    }

    static func clock(_ d: Date) -> String { ISODate.timeOfDay(d) }

    /// What a gap in a line is, and what it means.
    static let unwatching = "no writer watching"
    static let unwatched = unwatching + ": price unknown"

    /// The chart as a standalone SVG document; `demo`: its prices are simulated, and it says so under its title.
    public static func svg(_ c: PriceChart, width: Int = 960, height: Int = 480, demo: Bool = false, price: (Rational) -> String) -> String {
        let left = 70.0, right = 20.0, topMargin = demo ? 58.0 : 40.0, bottomMargin = 70.0
        let w = Double(width) - left - right, h = Double(height) - topMargin - bottomMargin
        func x(_ d: Date) -> Double { left + c.position(d) * w }
        func y(_ o: Rational) -> Double { topMargin + (1 - c.level(o)) * h }
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="24" font-size="15">\(escape(c.title))</text>
            \(demo ? "<text x=\"\(left)\" y=\"42\" font-weight=\"bold\" fill=\"#b35900\">\(escape(DemoLabel.banner))</text>\n" : "")\
            <line x1="\(left)" y1="\(topMargin)" x2="\(left)" y2="\(topMargin + h)" stroke="#444"/>
            <line x1="\(left)" y1="\(topMargin + h)" x2="\(left + w)" y2="\(topMargin + h)" stroke="#444"/>
            <text x="\(left - 6)" y="\(topMargin + 4)" text-anchor="end">\(escape(price(c.high)))</text>
            <text x="\(left - 6)" y="\(topMargin + h + 4)" text-anchor="end">\(escape(price(c.low)))</text>
            <text x="\(left)" y="\(topMargin + h + 18)">\(clock(c.from))</text>
            <text x="\(left + w)" y="\(topMargin + h + 18)" text-anchor="end">\(clock(c.to)) UTC</text>

            """
        for m in c.marks {
            let mx = format(x(m.at))
            out += "<line x1=\"\(mx)\" y1=\"\(topMargin)\" x2=\"\(mx)\" y2=\"\(format(topMargin + h))\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n"
            out += "<text x=\"\(mx)\" y=\"\(format(topMargin - 4))\" text-anchor=\"middle\">\(escape(String(m.symbol)))<title>\(escape(m.label))</title></text>\n"
        }
        for gap in c.gaps {
            let gx = x(gap.lowerBound), gw = max(1, x(gap.upperBound) - gx)
            out += "<rect x=\"\(format(gx))\" y=\"\(format(topMargin))\" width=\"\(format(gw))\" height=\"\(format(h))\" fill=\"#eeeeee\">"
                + "<title>\(escape(Self.unwatched))</title></rect>\n"
            if gw >= 80 {
                out += "<text x=\"\(format(gx + gw / 2))\" y=\"\(format(topMargin + 14))\" text-anchor=\"middle\" fill=\"#777\">\(unwatching)</text>\n"
            }
        }
        for (i, s) in c.series.enumerated() {
            // A polyline a run of open prices: a suspension, or a time no writer watched, breaks the line.
            var runs: [[String]] = []
            var last: Date?
            for held in c.held(s) {
                if last != held.from { runs.append([]) }
                runs[runs.count - 1].append("\(format(x(held.from))),\(format(y(held.odds)))")
                runs[runs.count - 1].append("\(format(x(held.to))),\(format(y(held.odds)))")
                last = held.to
            }
            let colour = palette[i % palette.count], dash = dashes[(i / palette.count) % dashes.count]
            for run in runs where !run.isEmpty {
                out += "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\"\(dash) points=\"\(run.joined(separator: " "))\"/>\n"
            }
            // The legend's swatch is a short line drawn as the series is, so that dashed lines read as dashed.
            let ly = topMargin + h + 38 + Double(i / 4) * 16, lx = left + Double(i % 4) * 200
            out += "<line x1=\"\(format(lx))\" y1=\"\(format(ly - 4))\" x2=\"\(format(lx + 18))\" y2=\"\(format(ly - 4))\" stroke=\"\(colour)\" stroke-width=\"2\"\(dash)/>\n"
            out += "<text x=\"\(format(lx + 24))\" y=\"\(format(ly))\" fill=\"\(colour)\">\(escape(s.name))</text>\n"
        }
        return out + "</svg>\n"
    }

    static func format(_ v: Double) -> String { String(format: "%.1f", v) }

    /// Text made safe inside XML: markup characters escaped, control characters dropped.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
