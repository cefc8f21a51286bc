"""The scenario tests written in rules files (`test "…" { … }`): a table set up as the test says, seats
answering as scripted, and the expectations checked after the game settles."""
