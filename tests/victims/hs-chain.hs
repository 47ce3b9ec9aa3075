-- hs-chain: main calls Leaky.leakBuffers 4 (tests/victims/hs-lib/Leaky.hs),
-- which leaks 4 blocks each of 1000 bytes (mallocBytes), 2000 (an unsafe
-- foreign call of malloc) and 3000 (a safe one); then one line of output.
-- The blocks are reachable only from main's variables, dead once it ends.
module Main where

import Leaky (leakBuffers)

main :: IO ()
main = do
  ps <- leakBuffers 4 -- LINE:chain-call
  putStrLn ("leaked " ++ show (length ps))
