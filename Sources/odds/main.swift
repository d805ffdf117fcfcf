import OddsCLI

await OddsMain.main()
