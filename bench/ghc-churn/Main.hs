-- ghc-churn - a single-threaded GHC program that collects its garbage
-- often, whose eventlog is read by bench/eventlog-ghc.sh: a cache of
-- requests where each entry is dropped 50,000 requests later, but one in a
-- thousand is kept (the leak the heap profile shows). Run with a small
-- nursery (+RTS -A64k) its eventlog is mostly the dozen events every
-- collection writes around a heap size, as a long run's is.
--
-- Usage: ghc-churn REQUESTS +RTS -l -hT -i0.05 -A64k -RTS
module Main (main) where

import Control.Monad (foldM, when)
import qualified Data.Map.Strict as M
import Debug.Trace (traceMarkerIO)
import System.Environment

data Entry = Entry !Int String

serve :: M.Map Int Entry -> Int -> IO (M.Map Int Entry)
serve cache i = do
  when (i `mod` 1000000 == 0) $ traceMarkerIO ("request " ++ show i)
  let cache' = M.insert i (Entry (i * 7) ("request-" ++ show i)) cache
      old = i - 50000
  return $! if old > 0 && old `mod` 1000 /= 0 then M.delete old cache' else cache'

main :: IO ()
main = do
  [n] <- map read <$> getArgs
  cache <- foldM serve M.empty [1 .. n]
  print (M.size cache)
