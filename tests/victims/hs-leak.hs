-- hs-leak: mallocBytes 1024 in main, never freed (the leak of seed story
-- "gperftools heapcheck for Haskell"); then a line of output. Built with -O1
-- like that story, so the call to malloc is in Main.main1 (z-encoded
-- Main_main1_info); at -O0 it stays in base's Foreign.Marshal.Alloc.
module Main where

import Foreign.Marshal.Alloc (mallocBytes)
import Foreign.Ptr (Ptr)

main :: IO ()
main = do -- LINE:hs-main
  p <- mallocBytes 1024 :: IO (Ptr ()) -- LINE:hs-malloc
  putStrLn ("leaked " ++ show p)
