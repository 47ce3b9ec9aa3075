-- ghc-events-peer - the peer of `leakscope eventlog` in bench/: reads a GHC
-- eventlog with the Haskell ghc-events library (Debian's
-- libghc-ghc-events-dev) and computes the same heap-profile aggregation:
-- the residency of each band summed over all censuses, the number of
-- censuses, and event counts. Streaming: the file is fed to ghc-events'
-- incremental decoder in 256 KiB chunks and folded strictly, so the peer is
-- measured at its best (no list of all events is kept).
--
-- Output (stdout): "events N", "censuses N", "string-samples N",
-- "cc-samples N", "ipe N", then one line per band "band<TAB>SUM<TAB>LABEL"
-- sorted by label. Cost-centre stacks are labelled like leakscope labels
-- them: "Module.name" of each centre, innermost first, joined by "/".
--
-- Build: ghc -O2 -o ghc-events-peer Main.hs   (bench/eventlog-throughput.sh does)
{-# LANGUAGE BangPatterns #-}
module Main (main) where

import qualified Data.ByteString as B
import qualified Data.IntMap.Strict as IM
import qualified Data.Map.Strict as M
import qualified Data.Text as T
import qualified Data.Text.IO as T
import qualified Data.Vector.Unboxed as VU
import Data.Word (Word64)
import GHC.RTS.Events
import GHC.RTS.Events.Incremental (Decoder (..), decodeEventLog)
import System.Environment (getArgs)
import System.Exit (exitWith, ExitCode (..))
import System.IO

data Acc = Acc
  { aEvents :: !Int
  , aCensuses :: !Int
  , aStrings :: !Int
  , aCcSamples :: !Int
  , aIpes :: !Int
  , aBands :: !(M.Map T.Text Word64)           -- string samples by label
  , aStacks :: !(M.Map [Int] Word64)           -- cost-centre samples by stack
  , aCentres :: !(IM.IntMap T.Text)            -- cost-centre id -> Module.name
  }

step :: Acc -> Event -> Acc
step !a ev = case evSpec ev of
  HeapProfSampleBegin {} -> a' { aCensuses = aCensuses a + 1 }
  HeapBioProfSampleBegin {} -> a' { aCensuses = aCensuses a + 1 }
  HeapProfSampleString { heapProfResidency = r, heapProfLabel = l } ->
    a' { aStrings = aStrings a + 1, aBands = M.insertWith (+) l r (aBands a) }
  HeapProfSampleCostCentre { heapProfResidency = r, heapProfStack = s } ->
    a' { aCcSamples = aCcSamples a + 1
       , aStacks = M.insertWith (+) (map fromIntegral (VU.toList s)) r (aStacks a) }
  HeapProfCostCentre { heapProfCostCentreId = i, heapProfLabel = l, heapProfModule = m } ->
    a' { aCentres = IM.insert (fromIntegral i) (qualify m l) (aCentres a) }
  InfoTableProv {} -> a' { aIpes = aIpes a + 1 }
  _ -> a'
  where
    a' = a { aEvents = aEvents a + 1 }
    qualify m l = if T.null m then l else m <> T.pack "." <> l

stackLabel :: IM.IntMap T.Text -> [Int] -> T.Text
stackLabel _ [] = T.pack "(empty stack)"
stackLabel cs ids = T.intercalate (T.pack "/") (map name ids)
  where name i = IM.findWithDefault (T.pack ("cc" ++ show i)) i cs

-- Feed the decoder chunk by chunk. The decoder never sees the end of the
-- input: when the file ends while it wants more (no end-of-data marker, or
-- a cut inside an event), stop there, as ghc-events' own readers do.
run :: Handle -> Decoder Event -> Acc -> IO (Acc, Maybe String)
run h = go
  where
    go d !a = case d of
      Produce ev d' -> go d' (step a ev)
      Consume k -> do
        c <- B.hGetSome h 262144
        if B.null c then return (a, Nothing) else go (k c) a
      Done _ -> return (a, Nothing)
      Error _ msg -> return (a, Just msg)

main :: IO ()
main = do
  args <- getArgs
  path <- case args of
    [p] -> return p
    _ -> hPutStrLn stderr "usage: ghc-events-peer FILE.eventlog" >> exitWith (ExitFailure 2)
  (a, err) <- withBinaryFile path ReadMode $ \h ->
    run h decodeEventLog (Acc 0 0 0 0 0 M.empty M.empty IM.empty)
  let stacks = M.fromListWith (+)
        [ (stackLabel (aCentres a) s, r) | (s, r) <- M.toList (aStacks a) ]
      bands = M.unionWith (+) (aBands a) stacks
  putStrLn ("events " ++ show (aEvents a))
  putStrLn ("censuses " ++ show (aCensuses a))
  putStrLn ("string-samples " ++ show (aStrings a))
  putStrLn ("cc-samples " ++ show (aCcSamples a))
  putStrLn ("ipe " ++ show (aIpes a))
  mapM_ (\(l, r) -> T.putStrLn (T.concat [T.pack "band\t", T.pack (show r), T.pack "\t", l]))
        (M.toList bands)
  case err of
    Nothing -> return ()
    Just msg -> hPutStrLn stderr ("ghc-events-peer: " ++ msg) >> exitWith (ExitFailure 1)
