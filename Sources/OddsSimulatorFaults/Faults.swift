import OddsSimulator

/// Fault injection for tests: REST failures, close codes, dropped and silent sockets, malformed and
/// partial frames, padding. A test-only target: the shipped binary (`--demo`, `odds sim`) links the
/// simulated world and its server, never these switches, and serves no URL that reaches them.
extension Simulator {
    /// The next `count` REST requests answer `status` (429, 403, 500 …); a 429 carries `retryAfter` as
    /// its `Retry-After` header (nil: none).
    public func failNextRequests(status: Int, count: Int = 1, retryAfter: String? = "1") async {
        await onLoop { self.failREST.append((status, count, status == 429 ? retryAfter : nil)) }
    }

    /// The next WebSocket connection is closed with `code` right after its first message.
    public func closeNextConnection(code: Int) async { await onLoop { self.closeNextCodes.append(code) } }

    /// Closes every open WebSocket with `code`.
    public func closeAll(code: Int) async { await onLoop { for c in self.connections.values { c.close(code: code) } } }

    /// Drops every open WebSocket without a close frame, as a network failure would.
    public func dropAll() async { await onLoop { for c in self.connections.values { c.drop() } } }

    /// Sends `count` malformed frames on every open WebSocket.
    public func injectMalformed(count: Int) async { await onLoop { for c in self.connections.values { c.sendMalformed(count) } } }

    /// Sends `text` as one text frame to every open connection (tests of a client's message handling).
    public func injectText(_ text: String) async { await onLoop { for c in self.connections.values { c.send(text) } } }

    /// Sends the first half of `text` as a non-final frame to every open connection, and never the rest.
    public func injectFirstHalf(_ text: String) async { await onLoop { for c in self.connections.values { c.sendFirstHalf(text) } } }

    /// While silent, no data, heartbeat, ping or pong is sent (a dead connection).
    public func setSilent(_ on: Bool) async { await onLoop { self.silent = on } }

    /// SportsAPIPro v2 answers a subscription to a match's odds with an error naming the channel (`text`), with
    /// nothing at all (""), or as the docs say (nil).
    public func refuseSportsAPIOdds(_ text: String?) async { await onLoop { self.sportsAPIOddsRefusal = text } }

    /// Pads every snapshot and broadcast with `bytes` of filler, to make frames big.
    public func setPadding(bytes: Int) async { await onLoop { self.padding = bytes } }
}
