import OddsCLI

// Before any other thread allocates: glibc gives a thread an arena when it first allocates.
OddsMain.prepare()
await OddsMain.main()
