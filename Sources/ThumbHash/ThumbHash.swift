public enum ThumbHash {}
