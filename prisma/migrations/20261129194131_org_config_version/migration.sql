-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "config_version" INTEGER NOT NULL DEFAULT 0;
